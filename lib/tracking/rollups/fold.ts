import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";

/**
 * The rollups' pending increments (tracking_rollup_pending): ingest appends what each batch adds to the daily bots,
 * page counts, daily citations and the page funnel's days, and a verdict reached later appends its change; a fold
 * adds them to the rollups and deletes them, in one statement. Many batches' increments of one rollup row become one
 * update, where each batch used to update it (a key search, a row lock and a row version per row and batch).
 *
 * Every read of a domain's rollups folds its increments first (foldPendingRollups), so a read counts every visit
 * stored before it began; the ingesting process folds its domains within a second of their batches
 * (scheduleRollupFold) and the runner sweeps what a stopped process left (foldAllPendingRollups), so reads find
 * little to fold.
 */

/**
 * The fold, run once the domains' advisory locks are held (foldPendingRollups): its snapshot sees every fold of these
 * domains committed before, and no other fold of them runs until it commits, so which rollup rows exist is known
 * while it runs (ingest and verdicts only append). The domains that still exist are held as ingest holds them; the
 * increments are deleted and added. The daily bots and crawled pages, which verdicts change, insert the rows that
 * do not exist yet (all of their visits are among the increments) and update the others by the sums (a verdict's
 * change may exceed the visits folded with it: its visits were folded before).
 */
function foldStatement(domainIds: string) {
  return sql`
    with live as materialized (
      select id from domains where id = any(${domainIds}::uuid[]) for key share
    ),
    moved as (
      delete from tracking_rollup_pending p
      where p.domain_id = any(${domainIds}::uuid[])
      returning p.domain_id, p.rollup, p.day, p.name, p.detail, p.extra, p.flag, p.n1, p.n2, p.n3, p.n4, p.n5, p.n6,
                p.first_at
    ),
    -- Increments of a domain removed since they were appended are dropped with them.
    kept as (
      select * from moved where domain_id in (select id from live)
    ),
    bots_in as (
      select k.domain_id, k.day, k.name, min(k.detail) as purpose, bool_or(k.flag) as ai, sum(k.n1) as visits,
             sum(k.n2) as verified, sum(k.n3) as spoofed, sum(k.n4) as by_signature, sum(k.n5) as by_ip,
             sum(k.n6) as by_rdns, bool_or(t.domain_id is not null) as stored
      from kept k
      left join tracking_daily_bots t on t.domain_id = k.domain_id and t.day = k.day and t.bot_name = k.name
      where k.rollup = 1 group by 1, 2, 3
    ),
    bots_new as (
      insert into tracking_daily_bots (domain_id, day, bot_name, bot_purpose, is_ai_bot, visits, verified_visits,
                                       spoofed_visits, signature_verified_visits, ip_verified_visits,
                                       rdns_verified_visits)
      select domain_id, day, name, purpose, ai, visits, verified, spoofed, by_signature, by_ip, by_rdns
      from bots_in where not stored order by 1, 2, 3
    ),
    bots_added as (
      update tracking_daily_bots t
      set visits = t.visits + u.visits, verified_visits = t.verified_visits + u.verified,
          spoofed_visits = t.spoofed_visits + u.spoofed,
          signature_verified_visits = t.signature_verified_visits + u.by_signature,
          ip_verified_visits = t.ip_verified_visits + u.by_ip,
          rdns_verified_visits = t.rdns_verified_visits + u.by_rdns
      from bots_in u
      where u.stored and t.domain_id = u.domain_id and t.day = u.day and t.bot_name = u.name
    ),
    pages as (
      insert into tracking_page_counts as t (domain_id, path, visits)
      select domain_id, name, sum(n1) from kept where rollup = 2 group by 1, 2 order by 1, 2
      on conflict (domain_id, path) do update set visits = t.visits + excluded.visits
    ),
    cites as (
      insert into tracking_daily_citations as t (domain_id, day, engine, citations)
      select domain_id, day, name, sum(n1) from kept where rollup = 3 group by 1, 2, 3 order by 1, 2, 3
      on conflict (domain_id, day, engine) do update set citations = t.citations + excluded.citations
    ),
    crawls_in as (
      select k.domain_id, k.day, k.name, sum(k.n1) as crawls, sum(k.n2) as verified, min(k.first_at) as first_at,
             bool_or(t.domain_id is not null) as stored
      from kept k
      left join tracking_daily_pages t on t.domain_id = k.domain_id and t.day = k.day and t.page = k.name
      where k.rollup = 4 group by 1, 2, 3
    ),
    crawls_new as (
      insert into tracking_daily_pages (domain_id, day, page, ai_crawls, verified_ai_crawls, first_crawl_at)
      select domain_id, day, name, crawls, verified, first_at from crawls_in where not stored order by 1, 2, 3
    ),
    crawls_added as (
      update tracking_daily_pages t
      set ai_crawls = t.ai_crawls + u.crawls, verified_ai_crawls = t.verified_ai_crawls + u.verified,
          first_crawl_at = least(t.first_crawl_at, u.first_at)
      from crawls_in u
      where u.stored and t.domain_id = u.domain_id and t.day = u.day and t.page = u.name
    ),
    page_cites as (
      insert into tracking_daily_page_citations as t (domain_id, day, page, engine, assistant, citations,
                                                       first_cited_at)
      select domain_id, day, name, detail, extra, sum(n1), min(first_at)
      from kept where rollup = 5 group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
      on conflict (domain_id, day, page, engine, assistant) do update set citations = t.citations + excluded.citations,
        first_cited_at = least(t.first_cited_at, excluded.first_cited_at)
    )
    select count(*)::int as folded from moved`;
}

/** Folds the pending increments of these domains into their rollups; returns how many increments it folded. */
export async function foldPendingRollups(db: DbOrTx, domainIds: readonly string[]): Promise<number> {
  if (domainIds.length === 0) return 0;
  // Ids the service stored (uuids): written as an array literal, bound as one parameter.
  const ids = `{${domainIds.join(",")}}`;
  return db.transaction(async (tx) => {
    // The domains' locks in one order (two folds never wait on each other in a cycle); a fold of the same domain
    // waits for the one running, then finds its increments gone. Held until the fold commits.
    await tx.execute(sql`
      select pg_advisory_xact_lock(k) from (
        select distinct hashtextextended(d::text, 4177) as k from unnest(${ids}::uuid[]) d order by 1
      ) s`);
    const [row] = rowsOf<{ folded: number }>(await tx.execute(foldStatement(ids)));
    return Number(row?.folded ?? 0);
  });
}

/** Domains with pending increments, at most `limit` of them. */
async function domainsPending(db: DbOrTx, limit: number): Promise<string[]> {
  const rows = rowsOf<{ domain_id: string }>(
    await db.execute(sql`
      with recursive d(id) as (
        (select domain_id from tracking_rollup_pending order by domain_id limit 1)
        union all
        select (select domain_id from tracking_rollup_pending where domain_id > d.id order by domain_id limit 1)
        from d where d.id is not null
      )
      select id as domain_id from d where id is not null limit ${limit}`),
  );
  return rows.map((r) => r.domain_id);
}

/**
 * Folds every domain's pending increments, a few hundred domains a statement (the runner's sweep, and what a test
 * calls to read the rollups as ingest left them). Returns how many increments it folded.
 */
export async function foldAllPendingRollups(db: DbOrTx): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await domainsPending(db, 200);
    if (ids.length === 0) return total;
    total += await foldPendingRollups(db, ids);
  }
}

/** How long after a batch its domains' increments are folded, at most (while the process runs). */
const FOLD_DELAY_MS = 1000;

/** Domains whose batches this process stored and has not folded yet, per database. */
const scheduled = new WeakMap<Db, { domains: Set<string>; timer: ReturnType<typeof setTimeout> }>();

/**
 * Folds these domains' increments within a second, once for every batch stored in that second: a busy site's
 * rollup rows are updated about once a second, and its reads find little to fold. A failed fold leaves its
 * increments pending (a read or the runner's sweep folds them) and is reported.
 */
export function scheduleRollupFold(db: Db, domainIds: Iterable<string>): void {
  let entry = scheduled.get(db);
  if (entry === undefined) {
    const domains = new Set<string>();
    const timer = setTimeout(() => {
      scheduled.delete(db);
      foldPendingRollups(db, [...domains].sort()).catch((err: unknown) => {
        console.warn(
          `rollups: could not fold pending increments (${(err as Error).message}); a later fold will`,
        );
      });
    }, FOLD_DELAY_MS);
    timer.unref?.();
    entry = { domains, timer };
    scheduled.set(db, entry);
  }
  for (const id of domainIds) entry.domains.add(id);
}
