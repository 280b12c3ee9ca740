import { inArray, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, PREPARED_STATEMENT, type Tx } from "@/lib/db/client";
import { isDeadlock, isUniqueViolation } from "@/lib/db/errors";
import { rowsOf } from "@/lib/db/rows";
import { domains, type NewVisit } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { accountsListening, emitWebhookEvent } from "@/lib/webhooks/outbox";
import { analyzeVisit } from "./analyze-visit";
import { awaitingSignature, judgeSignature, type PendingSignature } from "./signature-step";

export interface VisitFields {
  occurredAt: Date;
  path: string;
  userAgent: string;
  ip?: string | null;
  referrer?: string | null;
  status?: number | null;
  /** The request's Web Bot Auth headers, as received (raw values), when it carried a signature. */
  signature?: string | null;
  signatureInput?: string | null;
  signatureAgent?: string | null;
  /** The requested host the signature's @authority covers (default: the domain). */
  host?: string | null;
  method?: string | null;
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
  options: {
    isDemo?: boolean;
    /** The signed request's host when the visit has none of its own (the domain). */
    domain?: string;
    /** Collects the signed visits whose agent's keys are not at hand yet (settled after the batch is stored). */
    signatures?: PendingSignature[];
  } = {},
): NewVisit | null {
  const { classification, verification, citation } = analyzeVisit(visit);
  const bot = classification.kind === "bot" ? classification.bot : null;
  if (!bot && !citation) return null;
  const row: NewVisit = {
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
    verificationMethod: verification === "unknown" ? null : "ip",
    citationEngine: citation?.engine ?? null,
    citationReason: citation?.reason ?? null,
    eventKey,
    isDemo: options.isDemo ?? false,
  };
  // Only a signed request pays for this; a signature decides over the address.
  if (bot && visit.signature && visit.signatureInput) {
    const judged = judgeSignature(bot.name, {
      signature: visit.signature,
      signatureInput: visit.signatureInput,
      signatureAgent: visit.signatureAgent,
      authority: visit.host || options.domain || "",
      path: visit.path,
      method: visit.method,
      at: visit.occurredAt,
    });
    if (judged) {
      row.verification = judged.verification;
      row.verificationMethod = judged.method;
      if (judged.pending) {
        awaitingSignature.add(row);
        options.signatures?.push({ row, check: judged.pending, at: visit.occurredAt });
      }
    }
  }
  return row;
}

// Postgres text cannot hold NUL; a visit is still worth keeping without it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const NUL = /\u0000/g;
function clean(v: string | null | undefined): string | null {
  if (v == null) return null;
  return v.indexOf("\u0000") === -1 ? v : v.replace(NUL, "");
}

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
    else if (typeof v === "string")
      // Most values hold neither a quote nor a backslash: two scans are cheaper than the regex then.
      parts[i] =
        v.indexOf('"') === -1 && v.indexOf("\\") === -1 ? `"${v}"` : `"${v.replace(ARRAY_QUOTED, "\\$&")}"`;
    else parts[i] = String(v);
  }
  return `{${parts.join(",")}}`;
}
const ARRAY_QUOTED = /["\\]/g;

/**
 * Stores prepared visits and updates the rollups in ONE statement (so one transaction): the rows travel as array
 * parameters (encodeVisitBatch), unnested into a multi-row insert (a 15 000-parameter insert costs more to build
 * than the database work), the batch's domains are locked once each and the batch refused (FORBIDDEN_SCOPE,
 * nothing stored) if one is gone, visits whose event key is already stored are skipped (retries, replays), and the
 * rollups (daily bots, pages, daily citations, cited pages) are upserted set-wise from the rows actually
 * inserted, grouped so each rollup row is touched once and ordered so concurrent batches lock in the same
 * order. Returns how many visits were new.
 */
export async function recordVisits(db: DbOrTx, rows: NewVisit[]): Promise<number> {
  return storeVisitBatch(db, rows.length === 0 ? null : encodeVisitBatch(rows));
}

/**
 * Which form of the insert a batch's first attempt uses. The plain insert (no ON CONFLICT) is cheaper: an
 * arbiter index costs each row a second search of the primary key (a B-tree scan before the insert, then the
 * insert's own uniqueness check), a cost every row pays for nothing in live ingest, where a batch holds no
 * stored event. A stored event aborts it (unique violation, nothing kept) and the batch is stored again skipping
 * duplicates. The domains whose last batch held duplicates (a retry storm, a log uploaded again) start with
 * the skipping form, so a run of such batches pays for one aborted statement, not one each; their first batch
 * with nothing stored twice returns them to the plain insert.
 */
export class DuplicateMemory {
  private readonly keys = new Set<string>();
  constructor(private readonly capacity = 1000) {}

  skipsFirst(key: string): boolean {
    return this.keys.has(key);
  }

  /** After a batch is stored: whether it held duplicates (an aborted plain insert, or fewer rows inserted than sent). */
  record(key: string, heldDuplicates: boolean): void {
    if (!heldDuplicates) {
      this.keys.delete(key);
      return;
    }
    this.keys.delete(key);
    this.keys.add(key);
    // Oldest first: a set iterates in insertion order.
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.values().next().value as string);
  }
}
const duplicateMemory = new DuplicateMemory();

/** recordVisits of a batch encoded beforehand (encodeVisitBatch; null for none), so its rows can be let go. */
export async function storeVisitBatch(
  db: DbOrTx,
  batch: ReturnType<typeof encodeVisitBatch> | null,
): Promise<number> {
  if (batch === null) return 0;
  // Encoded once: a retry sends the same parameters.
  const key = batch.domains;
  let skipDuplicates = duplicateMemory.skipsFirst(key);
  for (let attempt = 1; ; attempt++) {
    try {
      // The visits and the citation.detected events they cause commit together (the webhook outbox).
      const inserted = await db.transaction(async (tx) => {
        const { inserted, firstCitations } = await insertVisits(tx, batch, skipDuplicates);
        if (firstCitations.length > 0) await emitCitationEvents(tx, firstCitations);
        return inserted;
      });
      duplicateMemory.record(key, inserted < batch.count);
      return inserted;
    } catch (err) {
      if (!skipDuplicates && isUniqueViolation(err)) {
        // An event of the batch is stored already (or being stored by a batch that just committed).
        skipDuplicates = true;
        attempt--;
        continue;
      }
      // Should concurrent batches still deadlock (visits and rollup rows are locked in one statement), Postgres
      // aborts one of them whole; the statement is atomic, so running it again is safe.
      if (attempt >= 3 || !isDeadlock(err)) throw err;
    }
  }
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

type Cell = string | number | boolean | null | undefined;

/**
 * The fields a visit shares with the other visits of its kind in a batch, sent once per distinct value: each
 * read as the insert stores it (undefined as null or false).
 */
const PROFILE = {
  domainId: (r: NewVisit): Cell => r.domainId,
  userAgent: (r: NewVisit): Cell => r.userAgent,
  referrer: (r: NewVisit): Cell => r.referrer ?? null,
  botName: (r: NewVisit): Cell => r.botName ?? null,
  botPurpose: (r: NewVisit): Cell => r.botPurpose ?? null,
  isAiBot: (r: NewVisit): Cell => r.isAiBot ?? false,
  verification: (r: NewVisit): Cell => r.verification,
  verificationMethod: (r: NewVisit): Cell => r.verificationMethod ?? null,
  citationEngine: (r: NewVisit): Cell => r.citationEngine ?? null,
  citationReason: (r: NewVisit): Cell => r.citationReason ?? null,
  isDemo: (r: NewVisit): Cell => r.isDemo ?? false,
};
const PROFILE_FIELDS = Object.keys(PROFILE) as (keyof typeof PROFILE)[];
const PROFILE_READ = Object.values(PROFILE);

function sameProfile(a: NewVisit, b: NewVisit): boolean {
  for (const read of PROFILE_READ) if (read(a) !== read(b)) return false;
  return true;
}

/**
 * The order a batch's visits are sent and inserted in: by domain, then event key, comparing UTF-16 code units.
 * Unique-key inserts lock in insertion order, so two batches sharing events wait for each other instead of
 * deadlocking as long as every batch uses the same total order; sorting here (not in SQL) spares Postgres a
 * collation-aware sort of text per batch: it inserts in the order the array gives (by ordinality).
 */
function insertOrder(a: NewVisit, b: NewVisit): number {
  if (a.domainId !== b.domainId) return a.domainId < b.domainId ? -1 : 1;
  const ka = a.eventKey as string;
  const kb = b.eventKey as string;
  return ka === kb ? 0 : ka < kb ? -1 : 1;
}

/** The fields of each visit of its own. */
const ROW_FIELDS = ["profile", "occurredAt", "path", "ip", "status", "eventKey"] as const;
const DAY_MS = 86_400_000;

/**
 * What a batch adds to the rollups when every visit it sends is stored, counted while it is encoded: the plain
 * insert (storeVisitBatch) stores all of them or none, so its statement upserts the rollups from these rows (a few
 * dozen for a site's usual traffic) instead of grouping its thousand inserted visits four times: the database does
 * less work, for a little more of the server's, and the database is what ingest waits on. Days are counted from 1970-01-01 (UTC), as `(occurred_at at time zone 'UTC')::date` gives them.
 */
export interface BatchRollups {
  /** Visits per profile and day (bots and citations: a profile holds the bot and the engine). */
  profileDays: { profile: string; day: string; visits: string };
  /** Bot visits per domain (named by one of its profiles) and page. */
  pages: { profile: string; page: string; visits: string };
  /** The earliest citation per profile, day and page, in milliseconds. */
  citedPages: { profile: string; day: string; page: string; firstMs: string };
}

/** Counts a batch's rollup rows one visit at a time; the visits of a domain arrive together (insertOrder). */
class RollupCounter {
  /** Per profile, its days and visits as pairs (a batch's profile spans a day or two: a scan beats a map). */
  private readonly profileDays: number[][] = [];
  private domainProfile = 0;
  private pageVisits = new Map<string, { visits: number }>();
  /** Per profile, each cited page's days and earliest times as pairs. */
  private readonly citedFirst: Map<string, number[]>[] = [];
  private readonly pages = { profile: [] as number[], page: [] as string[], visits: [] as number[] };

  add(
    profile: number,
    isBot: boolean,
    engine: string | null,
    ms: number,
    path: string,
    newDomain: boolean,
  ): void {
    if (newDomain) this.endDomain();
    const day = Math.floor(ms / DAY_MS);
    let days = this.profileDays[profile];
    if (days === undefined) {
      days = [];
      this.profileDays[profile] = days;
    }
    let d = 0;
    while (d < days.length && days[d] !== day) d += 2;
    if (d < days.length) days[d + 1]!++;
    else days.push(day, 1);
    if (isBot) {
      const page = pageOf(path);
      if (this.domainProfile === 0) this.domainProfile = profile;
      const count = this.pageVisits.get(page);
      if (count === undefined) this.pageVisits.set(page, { visits: 1 });
      else count.visits++;
    }
    if (engine !== null) {
      // By profile (which names the engine), then page: no key is built per citation.
      let byPage = this.citedFirst[profile];
      if (byPage === undefined) {
        byPage = new Map();
        this.citedFirst[profile] = byPage;
      }
      const page = pageOf(path);
      const firsts = byPage.get(page);
      if (firsts === undefined) byPage.set(page, [day, ms]);
      else {
        let f = 0;
        while (f < firsts.length && firsts[f] !== day) f += 2;
        if (f === firsts.length) firsts.push(day, ms);
        else if (ms < firsts[f + 1]!) firsts[f + 1] = ms;
      }
    }
  }

  private endDomain(): void {
    for (const [page, count] of this.pageVisits) {
      this.pages.profile.push(this.domainProfile);
      this.pages.page.push(page);
      this.pages.visits.push(count.visits);
    }
    this.domainProfile = 0;
    if (this.pageVisits.size > 0) this.pageVisits = new Map();
  }

  encode(): BatchRollups {
    this.endDomain();
    const profile: number[] = [];
    const day: number[] = [];
    const visits: number[] = [];
    const cited = {
      profile: [] as number[],
      day: [] as number[],
      page: [] as string[],
      firstMs: [] as number[],
    };
    this.citedFirst.forEach((byPage, n) => {
      for (const [page, firsts] of byPage) {
        for (let f = 0; f < firsts.length; f += 2) {
          cited.profile.push(n);
          cited.page.push(page);
          cited.day.push(firsts[f]!);
          cited.firstMs.push(firsts[f + 1]!);
        }
      }
    });
    for (let n = 1; n < this.profileDays.length; n++) {
      const days = this.profileDays[n];
      if (days === undefined) continue;
      for (let d = 0; d < days.length; d += 2) {
        profile.push(n);
        day.push(days[d]!);
        visits.push(days[d + 1]!);
      }
    }
    return {
      profileDays: {
        profile: pgArrayLiteral(profile),
        day: pgArrayLiteral(day),
        visits: pgArrayLiteral(visits),
      },
      pages: {
        profile: pgArrayLiteral(this.pages.profile),
        page: pgArrayLiteral(this.pages.page),
        visits: pgArrayLiteral(this.pages.visits),
      },
      citedPages: {
        profile: pgArrayLiteral(cited.profile),
        day: pgArrayLiteral(cited.day),
        page: pgArrayLiteral(cited.page),
        firstMs: pgArrayLiteral(cited.firstMs),
      },
    };
  }
}

/**
 * A batch of visits as the `unnest` parameters of the insert. A batch repeats a few dozen "profiles" (the same
 * domain, user agent, referrer, bot and verdicts), so those fields travel once per distinct profile and each
 * visit carries the number of its profile besides its own time, path, address, status and key: a batch sends a
 * fraction of the bytes one array per column would, and each user agent is escaped once instead of once per
 * visit.
 */
export function encodeVisitBatch(rows: readonly NewVisit[]): {
  profiles: Record<(typeof PROFILE_FIELDS)[number], string>;
  visits: Record<(typeof ROW_FIELDS)[number], string>;
  /** What the batch adds to the rollups if every visit it sends is new. */
  rollups: BatchRollups;
  /** How many visits the batch sends (an event repeated in it is sent once). */
  count: number;
  /** The batch's domains, sorted and comma-separated. */
  domains: string;
} {
  // Profiles by user agent (a string's hash is computed once per string), then the first visit of each profile
  // compared field by field: nothing is built per visit.
  const byAgent = new Map<string, { first: NewVisit; n: number }[]>();
  const profiles = PROFILE_READ.map(() => [] as Cell[]);
  const visits = ROW_FIELDS.map(() => new Array<Cell>(rows.length));
  const rollups = new RollupCounter();
  const sorted = [...rows].sort(insertOrder);
  // An event sent twice in one batch is stored once, as its first occurrence (the sort is stable): sorted by
  // key, repeats are neighbours. Dropping them here keeps the batch's plain insert from failing on itself.
  let i = 0;
  let domains = "";
  for (let s = 0; s < sorted.length; s++) {
    const r = sorted[s]!;
    const prev = s > 0 ? sorted[s - 1]! : undefined;
    if (prev !== undefined && prev.eventKey === r.eventKey && prev.domainId === r.domainId) continue;
    const newDomain = prev === undefined || prev.domainId !== r.domainId;
    if (newDomain) domains += prev === undefined ? r.domainId : `,${r.domainId}`;
    let same = byAgent.get(r.userAgent);
    if (same === undefined) {
      same = [];
      byAgent.set(r.userAgent, same);
    }
    let n = 0;
    for (const p of same) {
      if (sameProfile(p.first, r)) {
        n = p.n;
        break;
      }
    }
    if (n === 0) {
      n = profiles[0]!.length + 1;
      same.push({ first: r, n });
      for (let f = 0; f < PROFILE_READ.length; f++) profiles[f]!.push(PROFILE_READ[f]!(r));
    }
    // Milliseconds since the epoch: shorter than ISO text and far cheaper to write (V8 formats ISO with printf).
    const ms = (r.occurredAt as Date).getTime();
    rollups.add(n, r.botName != null, r.citationEngine ?? null, ms, r.path, newDomain);
    visits[0]![i] = n;
    visits[1]![i] = ms;
    visits[2]![i] = r.path;
    visits[3]![i] = r.ip;
    visits[4]![i] = r.status;
    visits[5]![i] = r.eventKey;
    i++;
  }
  for (const column of visits) column.length = i;
  return {
    profiles: Object.fromEntries(PROFILE_FIELDS.map((f, i) => [f, pgArrayLiteral(profiles[i]!)])) as never,
    visits: Object.fromEntries(ROW_FIELDS.map((f, i) => [f, pgArrayLiteral(visits[i]!)])) as never,
    rollups: rollups.encode(),
    count: i,
    domains,
  };
}

/**
 * The page funnel's rows of a batch (GET /tracking/pages): its AI crawls and its citations per UTC day and page,
 * from the visits stored (`ins`, when stored events are skipped) or sent (`input`, when all are stored or none).
 */
function pageFunnelSources(from: SQL): SQL {
  return sql`
      page_crawls as (
        select domain_id, (occurred_at at time zone 'UTC')::date as day, split_part(path, '?', 1) collate "C" as page,
               verification, occurred_at
        from ${from} where is_ai_bot and citation_engine is null
      ),
      page_cites as (
        select domain_id, (occurred_at at time zone 'UTC')::date as day, split_part(path, '?', 1) collate "C" as page,
               citation_engine collate "C" as engine, coalesce(bot_name, '') collate "C" as assistant, occurred_at
        from ${from} where citation_engine is not null
      ),`;
}

/** The page funnel's upserts, grouped and ordered like the other rollups (one touch per row, one lock order). */
const PAGE_FUNNEL_UPSERTS = sql`
      page_crawl_days as (
        insert into tracking_daily_pages as t (domain_id, day, page, ai_crawls, verified_ai_crawls, first_crawl_at)
        select domain_id, day, page, count(*), count(*) filter (where verification = 'verified'), min(occurred_at)
        from page_crawls group by 1, 2, 3 order by 1, 2, 3
        on conflict (domain_id, day, page) do update set ai_crawls = t.ai_crawls + excluded.ai_crawls,
          verified_ai_crawls = t.verified_ai_crawls + excluded.verified_ai_crawls,
          first_crawl_at = least(t.first_crawl_at, excluded.first_crawl_at)
      ),
      page_cite_days as (
        insert into tracking_daily_page_citations as t (domain_id, day, page, engine, assistant, citations,
                                                         first_cited_at)
        select domain_id, day, page, engine, assistant, count(*), min(occurred_at)
        from page_cites group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
        on conflict (domain_id, day, page, engine, assistant) do update set citations = t.citations + excluded.citations,
          first_cited_at = least(t.first_cited_at, excluded.first_cited_at)
      )`;

async function insertVisits(
  db: DbOrTx,
  batch: ReturnType<typeof encodeVisitBatch>,
  skipDuplicates: boolean,
): Promise<{ inserted: number; firstCitations: FirstCitation[] }> {
  const { profiles: p, visits: v, rollups: r } = batch;
  // The visits' insert, the same in both forms but for what it does with a stored event and what it returns.
  const insert = (tail: SQL) => sql`
      ins as (
        insert into visits (domain_id, occurred_at, path, user_agent, ip, referrer, status, bot_name, bot_purpose,
                            is_ai_bot, verification, verification_method, citation_engine, citation_reason,
                            event_key, is_demo)
        select domain_id, occurred_at, path, user_agent, ip, referrer, status, bot_name, bot_purpose, is_ai_bot,
               verification, verification_method, citation_engine, citation_reason, event_key, is_demo
        from input
        -- Unique-key inserts lock in insertion order: every batch inserts in the same total order (domain, then
        -- event key: encodeVisitBatch sends them sorted), so two batches sharing events wait for each other
        -- instead of deadlocking.
        order by ord
        ${tail}
      ),`;
  // Where the rollups' rows come from: what the insert returns when it may skip stored events, or the batch's own
  // counts (encodeVisitBatch) when it stores every visit or fails. Both give each source the same columns, types
  // and collations, so the upserts below group, order and lock alike in either form.
  const sources = skipDuplicates
    ? sql`${insert(sql`on conflict (domain_id, event_key) do nothing
        returning domain_id, (occurred_at at time zone 'UTC')::date as day, path, bot_name, bot_purpose, is_ai_bot,
                  citation_engine, verification, verification_method, occurred_at`)}
      bot_days as (
        select domain_id, day, bot_name, bot_purpose, is_ai_bot, verification, verification_method, 1 as visits
        from ins where bot_name is not null
      ),
      page_visits as (
        select domain_id, split_part(path, '?', 1) as page, 1 as visits from ins where bot_name is not null
      ),
      cite_days as (
        select domain_id, day, citation_engine as engine, 1 as visits from ins where citation_engine is not null
      ),
      cited_pages as (
        select domain_id, day, citation_engine as engine, split_part(path, '?', 1) as page, occurred_at as first_at
        from ins where citation_engine is not null
      ),
      ${pageFunnelSources(sql`ins`)}`
    : sql`${insert(sql`returning 1`)}
      profile_days as (
        select p.domain_id, date '1970-01-01' + x.day as day, p.bot_name collate "C" as bot_name, p.bot_purpose,
               p.is_ai_bot, p.verification, p.verification_method, p.citation_engine collate "C" as engine, x.visits
        from unnest(${r.profileDays.profile}::int[], ${r.profileDays.day}::int[], ${r.profileDays.visits}::int[])
          as x(profile, day, visits)
        join profile p on p.n = x.profile
        join domain d on d.id = p.domain_id
      ),
      bot_days as (
        select domain_id, day, bot_name, bot_purpose, is_ai_bot, verification, verification_method, visits
        from profile_days where bot_name is not null
      ),
      page_visits as (
        select p.domain_id, x.page collate "C" as page, x.visits
        from unnest(${r.pages.profile}::int[], ${r.pages.page}::text[], ${r.pages.visits}::int[])
          as x(profile, page, visits)
        join profile p on p.n = x.profile
        join domain d on d.id = p.domain_id
      ),
      cite_days as (
        select domain_id, day, engine, visits from profile_days where engine is not null
      ),
      cited_pages as (
        select p.domain_id, date '1970-01-01' + x.day as day, p.citation_engine collate "C" as engine,
               x.page collate "C" as page, to_timestamp(x.first_ms::float8 / 1000) as first_at
        from unnest(${r.citedPages.profile}::int[], ${r.citedPages.day}::int[], ${r.citedPages.page}::text[],
                    ${r.citedPages.firstMs}::int8[]) as x(profile, day, page, first_ms)
        join profile p on p.n = x.profile
        join domain d on d.id = p.domain_id
      ),
      ${pageFunnelSources(sql`input`)}`;
  const [result] = rowsOf<{ inserted: number; gone: number; firsts: FirstCitation[] | string | null }>(
    // One statement text per form whatever the batch: each prepared once per connection.
    await db.execute(sql`${sql.raw(PREPARED_STATEMENT)}
      with profile as (
        select * from unnest(
          ${p.domainId}::uuid[], ${p.userAgent}::text[], ${p.referrer}::text[], ${p.botName}::text[],
          ${p.botPurpose}::text[], ${p.isAiBot}::boolean[], ${p.verification}::text[],
          ${p.verificationMethod}::text[], ${p.citationEngine}::text[], ${p.citationReason}::text[],
          ${p.isDemo}::boolean[]
        ) with ordinality as p(domain_id, user_agent, referrer, bot_name, bot_purpose, is_ai_bot, verification,
                               verification_method, citation_engine, citation_reason, is_demo, n)
      ),
      -- The batch's domains, each locked as a foreign key's check locks it (a removal waits for this transaction,
      -- and this statement for a removal in progress): once per domain instead of once per visit. A domain that
      -- is gone is missing here, and the batch is refused (the caller rolls it back) instead of failing on the
      -- rollups' keys. A removal also waits on the rollup rows this statement writes (its cascade deletes them).
      domain as materialized (
        select id from domains where id in (select domain_id from profile) for key share
      ),
      input as (
        -- to_timestamp takes float8 and rounds to microseconds: a millisecond count comes back exact from 1900 to
        -- 2109 (checked against epoch + n milliseconds over millions of counts). Dividing as numeric gave the same
        -- result everywhere (it became float8 for to_timestamp) at three times the cost.
        select p.domain_id, to_timestamp(x.occurred_ms::float8 / 1000) as occurred_at, x.path, p.user_agent, x.ip,
               p.referrer, x.status, p.bot_name, p.bot_purpose, p.is_ai_bot, p.verification, p.verification_method,
               p.citation_engine,
               p.citation_reason, x.event_key, p.is_demo, x.ord
        from unnest(
          ${v.profile}::int[], ${v.occurredAt}::int8[], ${v.path}::text[], ${v.ip}::text[],
          ${v.status}::int[], ${v.eventKey}::text[]
        ) with ordinality as x(profile, occurred_ms, path, ip, status, event_key, ord)
        join profile p on p.n = x.profile
        join domain d on d.id = p.domain_id
      ),
      ${sources}
      bots as (
        insert into tracking_daily_bots as t (domain_id, day, bot_name, bot_purpose, is_ai_bot, visits,
                                              verified_visits, spoofed_visits, signature_verified_visits,
                                              ip_verified_visits, rdns_verified_visits)
        select domain_id, day, bot_name, min(bot_purpose), bool_or(is_ai_bot), sum(visits),
               coalesce(sum(visits) filter (where verification = 'verified'), 0),
               coalesce(sum(visits) filter (where verification = 'unverified'), 0),
               coalesce(sum(visits) filter (where verification = 'verified' and verification_method = 'signature'), 0),
               coalesce(sum(visits) filter (where verification = 'verified' and verification_method = 'ip'), 0),
               coalesce(sum(visits) filter (where verification = 'verified' and verification_method = 'rdns'), 0)
        from bot_days group by domain_id, day, bot_name order by domain_id, day, bot_name
        on conflict (domain_id, day, bot_name) do update set visits = t.visits + excluded.visits,
          verified_visits = t.verified_visits + excluded.verified_visits,
          spoofed_visits = t.spoofed_visits + excluded.spoofed_visits,
          signature_verified_visits = t.signature_verified_visits + excluded.signature_verified_visits,
          ip_verified_visits = t.ip_verified_visits + excluded.ip_verified_visits,
          rdns_verified_visits = t.rdns_verified_visits + excluded.rdns_verified_visits
      ),
      pages as (
        insert into tracking_page_counts as t (domain_id, path, visits)
        select domain_id, page, sum(visits) from page_visits group by 1, 2 order by 1, 2
        on conflict (domain_id, path) do update set visits = t.visits + excluded.visits
      ),
      cites as (
        insert into tracking_daily_citations as t (domain_id, day, engine, citations)
        select domain_id, day, engine, sum(visits) from cite_days group by 1, 2, 3 order by 1, 2, 3
        on conflict (domain_id, day, engine) do update set citations = t.citations + excluded.citations
      ),
      -- The pages cited by this batch that no stored citation had cited that day: the rows new here, each the
      -- first citation of its page by its engine that UTC day (a citation.detected event), returned with the earliest
      -- of the batch's visits that made it. A concurrent batch citing the same page waits on the key, then finds it
      -- taken (one event, not two). The time travels in the row: a join of the new rows back to the batch's visits
      -- is planned as a nested loop (Postgres cannot count a statement's own inserts), which grows with the square
      -- of the batch.
      firsts as (
        insert into tracking_cited_pages (domain_id, day, engine, page, first_cited_at)
        select domain_id, day, engine, page, min(first_at) from cited_pages group by 1, 2, 3, 4 order by 1, 2, 3, 4
        on conflict do nothing
        returning domain_id, day::text as day, engine, page, first_cited_at as occurred_at
      ),
      ${PAGE_FUNNEL_UPSERTS}
      -- Counting the insert's rows first also runs it first: the visits are locked before any rollup row, in both
      -- forms.
      select (select count(*)::int from ins) as inserted,
             (select count(distinct domain_id)::int from profile) - (select count(*)::int from domain) as gone,
             (select coalesce(json_agg(f order by f.domain_id, f.day, f.engine, f.page), '[]'::json) from firsts f) as firsts`),
  );
  if (Number(result?.gone ?? 0) > 0) {
    throw new AppError(
      "FORBIDDEN_SCOPE",
      "A domain of this batch was removed while the batch was being stored; nothing was stored.",
    );
  }
  const firsts = result?.firsts;
  return {
    inserted: Number(result?.inserted ?? 0),
    firstCitations: (typeof firsts === "string" ? JSON.parse(firsts) : (firsts ?? [])) as FirstCitation[],
  };
}
