import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, PREPARED_STATEMENT } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { AppError } from "@/lib/errors";
import type { encodeVisitBatch } from "./encode-visits";
import { pgArrayLiteral } from "./prepare-visit";

/** A page an engine cited first that UTC day, as the statement returns it (one citation.detected event each). */
export interface FirstCitation {
  domain_id: string;
  day: string;
  engine: string;
  page: string;
  occurred_at: string;
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

/**
 * Stores a batch's visits and their rollups in one statement. `agentIds` gives each profile's agent (visit_agents),
 * in the profiles' order.
 */
export async function insertVisits(
  db: DbOrTx,
  batch: ReturnType<typeof encodeVisitBatch>,
  agentIds: readonly number[],
  skipDuplicates: boolean,
): Promise<{ inserted: number; firstCitations: FirstCitation[] }> {
  const { profiles: p, visits: v, rollups: r } = batch;
  // The visits' insert, the same in both forms but for what it does with a stored event and what it returns.
  const insert = (tail: SQL) => sql`
      ins as (
        insert into visits (occurred_at, domain_id, agent_id, status, is_ai_bot, path, event_key, verification,
                            bot_name, verification_method, ip, referrer, citation_engine)
        select occurred_at, domain_id, agent_id, status, is_ai_bot, path, event_key, verification, bot_name,
               verification_method, ip, referrer, citation_engine
        from input
        -- Unique-key inserts lock in insertion order: every batch inserts in the same total order (the primary
        -- key's: encodeVisitBatch sends them sorted), so two batches sharing events wait for each other instead of
        -- deadlocking.
        order by ord
        ${tail}
      ),`;
  // Where the rollups' rows come from: what the insert returns when it may skip stored events, or the batch's own
  // counts (encodeVisitBatch) when it stores every visit or fails. Both give each source the same columns, types
  // and collations, so the upserts below group, order and lock alike in either form.
  const sources = skipDuplicates
    ? sql`${insert(sql`on conflict (domain_id, occurred_at, event_key) do nothing
        returning domain_id, (occurred_at at time zone 'UTC')::date as day, path, bot_name, agent_id, is_ai_bot,
                  citation_engine, verification, verification_method, occurred_at`)}
      bot_days as (
        -- The purpose is the agent's (every profile of an agent has the same).
        select i.domain_id, i.day, i.bot_name, a.bot_purpose, i.is_ai_bot, i.verification, i.verification_method,
               1 as visits
        from ins i join (select distinct agent_id, bot_purpose from profile) a on a.agent_id = i.agent_id
        where i.bot_name is not null
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
          ${p.domainId}::uuid[], ${pgArrayLiteral(agentIds)}::int[], ${p.referrer}::text[], ${p.botName}::text[],
          ${p.botPurpose}::text[], ${p.isAiBot}::boolean[], ${p.verification}::visit_verification[],
          ${p.verificationMethod}::text[], ${p.citationEngine}::text[]
        ) with ordinality as p(domain_id, agent_id, referrer, bot_name, bot_purpose, is_ai_bot, verification,
                               verification_method, citation_engine, n)
      ),
      -- The batch's domains, each locked as a foreign key's check locks it (a removal waits for this transaction,
      -- and this statement for a removal in progress): once per domain instead of once per visit. A removal also
      -- waits on the rollup rows this statement writes (its cascade deletes them).
      locked as materialized (
        select id from domains where id in (select domain_id from profile) for key share
      ),
      -- The domains the batch stores to: all of them, or none when one is gone, so that a batch refused for it
      -- (FORBIDDEN_SCOPE) has stored nothing even when the statement commits on its own.
      domain as materialized (
        select id from locked where (select count(*) from locked) = (select count(distinct domain_id) from profile)
      ),
      input as (
        -- to_timestamp takes float8 and rounds to microseconds: a millisecond count comes back exact from 1900 to
        -- 2109 (checked against epoch + n milliseconds over millions of counts). Dividing as numeric gave the same
        -- result everywhere (it became float8 for to_timestamp) at three times the cost.
        select p.domain_id, to_timestamp(x.occurred_ms::float8 / 1000) as occurred_at, x.path, p.agent_id, x.ip,
               p.referrer, x.status, p.bot_name, p.is_ai_bot, p.verification, p.verification_method,
               p.citation_engine, x.event_key, x.ord
        from unnest(
          ${v.profile}::int[], ${v.occurredAt}::int8[], ${v.path}::text[], ${v.ip}::text[],
          ${v.status}::int2[], ${v.eventKey}::text[]
        ) with ordinality as x(profile, occurred_ms, path, ip, status, event_key, ord)
        join profile p on p.n = x.profile
        join domain d on d.id = p.domain_id
      ),
      ${sources}
      -- The rollups nobody reads back run once the statement's own rows are done, the last declared first (Postgres
      -- completes such WITH queries in reverse order): the page rows first, the day's bots and engines last. Those
      -- few rows are the ones every concurrent batch adds to, so each batch holds them from its update to its commit
      -- only. Every batch runs the same statement, so all lock in one order.
      cites as (
        insert into tracking_daily_citations as t (domain_id, day, engine, citations)
        select domain_id, day, engine, sum(visits) from cite_days group by 1, 2, 3 order by 1, 2, 3
        on conflict (domain_id, day, engine) do update set citations = t.citations + excluded.citations
      ),
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
      ${PAGE_FUNNEL_UPSERTS},
      pages as (
        insert into tracking_page_counts as t (domain_id, path, visits)
        select domain_id, page, sum(visits) from page_visits group by 1, 2 order by 1, 2
        on conflict (domain_id, path) do update set visits = t.visits + excluded.visits
      )
      -- Counting the insert's rows first also runs it first: the visits are locked before any rollup row, in both
      -- forms.
      select (select count(*)::int from ins) as inserted,
             (select count(distinct domain_id)::int from profile) - (select count(*)::int from locked) as gone,
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
