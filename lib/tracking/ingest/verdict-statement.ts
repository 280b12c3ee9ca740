import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import { isDeadlock } from "@/lib/db/errors";

/**
 * A stored visit by its key (domain, time, event key) and the verdict reached for it. `overrulesIp`: the visit was
 * stored as spoofed because its address is in none of its operator's published ranges, and reverse DNS has since
 * proved it genuine (the operator documents both, and a range file can lag behind the operator's fleet).
 */
export type SettledVisit = [
  domainId: string,
  occurredAt: string,
  eventKey: string,
  verdict: "verified" | "unverified",
  overrulesIp?: true,
];

/**
 * Moves visits still undecided ("unknown") to a verdict reached after they were stored, with the method that
 * reached it, and adds them to the daily bot rollup's verified or spoofed counts (and the method's count). A
 * visit that overrules its address's verdict moves from the spoofed count to the verified one; only a visit still
 * spoofed by its address moves (never one a signature decided).
 */
export async function storeVerdicts(
  db: DbOrTx,
  settled: SettledVisit[],
  method: "signature" | "rdns",
): Promise<void> {
  if (settled.length === 0) return;
  for (let attempt = 1; ; attempt++) {
    try {
      await db.execute(verdictStatement(settled, method));
      return;
    } catch (err) {
      // The statement is atomic and only moves visits still undecided: running it again is safe. In a caller's
      // transaction, which the deadlock aborted, it is the caller's to retry.
      if (attempt >= 3 || db instanceof PgTransaction || !isDeadlock(err)) throw err;
    }
  }
}

/**
 * The rollup rows are locked as an ingest batch locks them: the page funnel's days before the bots' days, each in
 * key order (a batch and a verdict adding to the same day's page and bot would otherwise wait for each other).
 */
function verdictStatement(settled: SettledVisit[], method: "signature" | "rdns") {
  const methodColumn = sql.raw(method === "signature" ? "signature_verified_visits" : "rdns_verified_visits");
  return sql`
    with input as (
      select (x->>0)::uuid as domain_id, (x->>1)::timestamptz as occurred_at, x->>2 as event_key,
             x->>3 as verification, coalesce((x->>4)::boolean, false) as overrules_ip
      from jsonb_array_elements(${JSON.stringify(settled)}::jsonb) as x
    ),
    upd as (
      update visits v set verification = i.verification::visit_verification, verification_method = ${method}
      from input i
      -- The whole primary key: each visit found by one descent of its month's key, not among all of the domain's.
      where v.domain_id = i.domain_id and v.occurred_at = i.occurred_at and v.event_key = i.event_key
        and (case when i.overrules_ip
                  then v.verification = 'unverified' and v.verification_method = 'ip' and i.verification = 'verified'
                  else v.verification = 'unknown' end)
      returning v.domain_id, (v.occurred_at at time zone 'UTC')::date as day, v.bot_name, v.verification,
                split_part(v.path, '?', 1) as page, v.is_ai_bot and v.citation_engine is null as ai_crawl,
                i.overrules_ip
    ),
    -- The page funnel's verified AI crawls (tracking_daily_pages), settled with the bots' rollup.
    page_locks as materialized (
      select t.domain_id, t.day, t.page, u.verified
      from tracking_daily_pages t
      join (
        select domain_id, day, page collate "C" as page, count(*) as verified from upd
        where ai_crawl and verification = 'verified' group by 1, 2, 3
      ) u on t.domain_id = u.domain_id and t.day = u.day and t.page = u.page
      order by t.domain_id, t.day, t.page
      for no key update of t
    ),
    page_days as (
      update tracking_daily_pages t set verified_ai_crawls = t.verified_ai_crawls + l.verified
      from page_locks l
      where t.domain_id = l.domain_id and t.day = l.day and t.page = l.page
      returning 1
    ),
    bot_locks as materialized (
      select t.domain_id, t.day, t.bot_name, u.verified, u.spoofed, u.overruled
      from tracking_daily_bots t
      join (
        select domain_id, day, bot_name collate "C" as bot_name,
               count(*) filter (where verification = 'verified') as verified,
               count(*) filter (where verification = 'unverified') as spoofed,
               count(*) filter (where overrules_ip) as overruled
        from upd where bot_name is not null group by 1, 2, 3
      ) u on t.domain_id = u.domain_id and t.day = u.day and t.bot_name = u.bot_name
      -- Counting the pages' updates first runs them first: no bot row is locked before they are done.
      where (select count(*) from page_days) >= 0
      order by t.domain_id, t.day, t.bot_name
      for no key update of t
    )
    update tracking_daily_bots t
    set verified_visits = t.verified_visits + l.verified, spoofed_visits = t.spoofed_visits + l.spoofed - l.overruled,
        ${methodColumn} = t.${methodColumn} + l.verified
    from bot_locks l
    where t.domain_id = l.domain_id and t.day = l.day and t.bot_name = l.bot_name`;
}
