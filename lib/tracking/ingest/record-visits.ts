import { inArray, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { domains, type NewVisit } from "@/lib/db/schema";
import { accountsListening, emitWebhookEvent } from "@/lib/webhooks/outbox";
import { analyzeVisit } from "./analyze-visit";

export interface VisitFields {
  occurredAt: Date;
  path: string;
  userAgent: string;
  ip?: string | null;
  referrer?: string | null;
  status?: number | null;
}

/**
 * The row to store for one visit, or null for a human visit that no AI engine referred: those are not bot
 * visits and not citations, so we keep nothing about them (not even the address). Humans' addresses are
 * dropped from stored citations too.
 */
export function prepareVisit(
  domainId: string,
  visit: VisitFields,
  eventKey: string,
  options: { isDemo?: boolean } = {},
): NewVisit | null {
  const { classification, verification, citation } = analyzeVisit(visit);
  const bot = classification.kind === "bot" ? classification.bot : null;
  if (!bot && !citation) return null;
  const clean = (v: string | null | undefined) => (v == null ? null : v.replace(NUL, ""));
  return {
    domainId,
    occurredAt: visit.occurredAt,
    path: clean(visit.path) ?? "",
    userAgent: clean(visit.userAgent) ?? "",
    ip: bot ? (visit.ip ?? null) : null,
    referrer: clean(visit.referrer),
    status: visit.status ?? null,
    botName: bot?.name ?? null,
    botPurpose: bot?.purpose ?? null,
    isAiBot: bot?.isAIBot ?? false,
    verification,
    citationEngine: citation?.engine ?? null,
    citationReason: citation?.reason ?? null,
    eventKey,
    isDemo: options.isDemo ?? false,
  };
}

// Postgres text cannot hold NUL; a visit is still worth keeping without it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const NUL = /\u0000/g;

/** The path a page is counted under in topPages: the query string (tracking tags, cache busters) dropped. */
export function pageOf(path: string): string {
  const q = path.indexOf("?");
  return q === -1 ? path : path.slice(0, q);
}

/**
 * A Postgres array literal of `values` (NULL for null), for one `unnest` parameter: a column of a batch travels
 * as one text parameter, whatever the batch's size, and Postgres parses it without a JSON detour.
 */
export function pgArrayLiteral(values: readonly (string | number | boolean | null | undefined)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v == null) parts[i] = "NULL";
    else if (typeof v === "string") parts[i] = `"${v.replace(ARRAY_QUOTED, "\\$&")}"`;
    else parts[i] = String(v);
  }
  return `{${parts.join(",")}}`;
}
const ARRAY_QUOTED = /["\\]/g;

/**
 * Stores prepared visits and updates the rollups in ONE statement (so one transaction): the rows travel as one
 * array parameter per column, unnested into a multi-row insert (a 15 000-parameter insert costs more to build
 * than the database work), visits whose event key is already stored are skipped (retries, replays), and the
 * rollups (daily bots, pages, daily citations, cited pages) are upserted set-wise from the rows actually
 * inserted, grouped so each rollup row is touched once and ordered so concurrent batches lock in the same
 * order. Returns how many visits were new.
 */
export async function recordVisits(db: DbOrTx, rows: NewVisit[]): Promise<number> {
  if (rows.length === 0) return 0;
  for (let attempt = 1; ; attempt++) {
    try {
      // The visits and the citation.detected events they cause commit together (the webhook outbox).
      return await db.transaction(async (tx) => {
        const { inserted, firstCitations } = await insertVisits(tx, rows);
        if (firstCitations.length > 0) await emitCitationEvents(tx, firstCitations);
        return inserted;
      });
    } catch (err) {
      // Should concurrent batches still deadlock (visits and rollup rows are locked in one statement), Postgres
      // aborts one of them whole; the statement is atomic, so running it again is safe.
      if (attempt >= 3 || !isDeadlock(err)) throw err;
    }
  }
}

function isDeadlock(err: unknown): boolean {
  const code = (err as { code?: string })?.code ?? (err as { cause?: { code?: string } })?.cause?.code;
  return code === "40P01";
}

interface FirstCitation {
  domain_id: string;
  day: string;
  engine: string;
  page: string;
  occurred_at: string;
}

/** One citation.detected event per first citation of a page by an engine on a UTC day. */
async function emitCitationEvents(tx: Tx, firsts: FirstCitation[]): Promise<void> {
  const owners = await tx
    .select({ id: domains.id, accountId: domains.accountId, hostname: domains.hostname })
    .from(domains)
    .where(inArray(domains.id, [...new Set(firsts.map((f) => f.domain_id))]));
  const byId = new Map(owners.map((o) => [o.id, o]));
  const listening = await accountsListening(
    tx,
    [...new Set(owners.map((o) => o.accountId))],
    "citation.detected",
  );
  for (const f of firsts) {
    const owner = byId.get(f.domain_id);
    if (!owner || !listening.has(owner.accountId)) continue;
    await emitWebhookEvent(tx, owner.accountId, "citation.detected", {
      domain: owner.hostname,
      path: f.page,
      engine: f.engine,
      day: f.day,
      occurredAt: new Date(f.occurred_at).toISOString(),
    });
  }
}

async function insertVisits(
  db: DbOrTx,
  rows: NewVisit[],
): Promise<{ inserted: number; firstCitations: FirstCitation[] }> {
  const col = <T>(pick: (r: NewVisit) => T) => pgArrayLiteral(rows.map(pick) as never);
  const [result] = rowsOf<{ inserted: number; firsts: FirstCitation[] | string | null }>(
    await db.execute(sql`
      with input as (
        select * from unnest(
          ${col((r) => r.domainId)}::uuid[], ${col((r) => (r.occurredAt as Date).toISOString())}::timestamptz[],
          ${col((r) => r.path)}::text[], ${col((r) => r.userAgent)}::text[], ${col((r) => r.ip)}::text[],
          ${col((r) => r.referrer)}::text[], ${col((r) => r.status)}::int[], ${col((r) => r.botName)}::text[],
          ${col((r) => r.botPurpose)}::text[], ${col((r) => r.isAiBot ?? false)}::boolean[],
          ${col((r) => r.verification)}::text[], ${col((r) => r.citationEngine)}::text[],
          ${col((r) => r.citationReason)}::text[], ${col((r) => r.eventKey)}::text[],
          ${col((r) => r.isDemo ?? false)}::boolean[]
        ) as x(domain_id, occurred_at, path, user_agent, ip, referrer, status, bot_name, bot_purpose, is_ai_bot,
               verification, citation_engine, citation_reason, event_key, is_demo)
      ),
      ins as (
        insert into visits (domain_id, occurred_at, path, user_agent, ip, referrer, status, bot_name, bot_purpose,
                            is_ai_bot, verification, citation_engine, citation_reason, event_key, is_demo)
        select domain_id, occurred_at, path, user_agent, ip, referrer, status, bot_name, bot_purpose, is_ai_bot,
               verification, citation_engine, citation_reason, event_key, is_demo
        from input
        -- Unique-key inserts lock in insertion order: every batch inserts in key order, so two batches
        -- sharing events wait for each other instead of deadlocking.
        order by domain_id, event_key
        on conflict (domain_id, event_key) do nothing
        returning domain_id, (occurred_at at time zone 'UTC')::date as day, path, bot_name, bot_purpose, is_ai_bot,
                  citation_engine, verification, occurred_at
      ),
      bots as (
        insert into tracking_daily_bots as t (domain_id, day, bot_name, bot_purpose, is_ai_bot, visits,
                                              verified_visits, spoofed_visits)
        select domain_id, day, bot_name, min(bot_purpose), bool_or(is_ai_bot), count(*),
               count(*) filter (where verification = 'verified'), count(*) filter (where verification = 'unverified')
        from ins
        where bot_name is not null group by domain_id, day, bot_name order by domain_id, day, bot_name
        on conflict (domain_id, day, bot_name) do update set visits = t.visits + excluded.visits,
          verified_visits = t.verified_visits + excluded.verified_visits,
          spoofed_visits = t.spoofed_visits + excluded.spoofed_visits
      ),
      pages as (
        insert into tracking_page_counts as t (domain_id, path, visits)
        select domain_id, split_part(path, '?', 1), count(*) from ins
        where bot_name is not null group by 1, 2 order by 1, 2
        on conflict (domain_id, path) do update set visits = t.visits + excluded.visits
      ),
      cites as (
        insert into tracking_daily_citations as t (domain_id, day, engine, citations)
        select domain_id, day, citation_engine, count(*) from ins
        where citation_engine is not null group by 1, 2, 3 order by 1, 2, 3
        on conflict (domain_id, day, engine) do update set citations = t.citations + excluded.citations
      ),
      -- The pages cited by this batch that no stored citation had cited that day: the rows new here. A
      -- concurrent batch citing the same page waits on the key, then finds it taken (one event, not two).
      cited as (
        insert into tracking_cited_pages (domain_id, day, engine, page)
        select domain_id, day, citation_engine, split_part(path, '?', 1) from ins
        where citation_engine is not null group by 1, 2, 3, 4 order by 1, 2, 3, 4
        on conflict do nothing
        returning domain_id, day, engine, page
      ),
      -- The first citation of a page by an engine on a UTC day (none stored before this statement): a
      -- citation.detected event, with the earliest of the batch's visits that made it.
      firsts as (
        select distinct on (i.domain_id, i.day, i.citation_engine, split_part(i.path, '?', 1))
          i.domain_id, i.day::text as day, i.citation_engine as engine, split_part(i.path, '?', 1) as page,
          i.occurred_at
        from ins i
        join cited c on c.domain_id = i.domain_id and c.day = i.day and c.engine = i.citation_engine
          and c.page = split_part(i.path, '?', 1)
        order by i.domain_id, i.day, i.citation_engine, split_part(i.path, '?', 1), i.occurred_at
      )
      select (select count(*)::int from ins) as inserted,
             (select coalesce(json_agg(f), '[]'::json) from firsts f) as firsts`),
  );
  const firsts = result?.firsts;
  return {
    inserted: Number(result?.inserted ?? 0),
    firstCitations: (typeof firsts === "string" ? JSON.parse(firsts) : (firsts ?? [])) as FirstCitation[],
  };
}
