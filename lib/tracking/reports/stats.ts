import { sql } from "drizzle-orm";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import type { TrackingStats } from "../api-schemas";
import { trackingReadCache, utcDay } from "./read-cache";

const TOP = 10;

/**
 * GET /tracking/stats: bot visit statistics of a registered domain (403 FORBIDDEN_SCOPE otherwise), read
 * from the rollups kept on ingest and cached about 2 minutes. Human visits are not bot visits: they count
 * nowhere here (the AI-referred ones are citations).
 */
export async function getBotStats(db: Db, accountId: string, domain: string): Promise<TrackingStats> {
  const row = await requireRegisteredDomain(db, accountId, domain);
  return trackingReadCache.getOrLoad(`stats|${accountId}|${row.id}`, () =>
    readBotStats(db, row.id, row.hostname, trackingReadCache.now()),
  );
}

/** A json column: postgres.js hands back text, PGlite the parsed value. */
function json<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/**
 * The three figures in ONE statement (one round trip, one snapshot): totals and top bots from the daily
 * rollup, top pages from the page counts (their ranks' index gives the pages that can be among the top ten,
 * which alone are sorted).
 */
async function readBotStats(db: Db, domainId: string, hostname: string, now: number) {
  const since30 = utcDay(now, 29);
  const [row] = rowsOf<{ totals: unknown; bots: unknown; pages: unknown }>(
    await db.execute(sql`
      select
        (select json_build_object(
                  'total', coalesce(sum(visits), 0)::text,
                  'ai', coalesce(sum(visits) filter (where is_ai_bot), 0)::text,
                  'last30', coalesce(sum(visits) filter (where day >= ${since30}::date), 0)::text,
                  'bots', count(distinct bot_name)::text)
           from tracking_daily_bots where domain_id = ${domainId}) as totals,
        (select coalesce(json_agg(b), '[]'::json) from (
           select bot_name as name, sum(visits)::text as count, bool_or(is_ai_bot) as ai,
                  sum(verified_visits)::text as verified, sum(spoofed_visits)::text as spoofed,
                  sum(signature_verified_visits)::text as signature, sum(ip_verified_visits)::text as ip,
                  sum(rdns_verified_visits)::text as rdns
           from tracking_daily_bots where domain_id = ${domainId}
           group by bot_name order by sum(visits) desc, bot_name collate "C" asc limit ${TOP}) b) as bots,
        (select coalesce(json_agg(p), '[]'::json) from (
           select path, visits::text as count from (
             -- Every page counting as many visits as the tenth or more has a rank at least the tenth's (the rank
             -- grows with the count): those pages, read off the top of the ranks' index (in its order, so the index
             -- bounds the read), hold the top ten and its ties.
             select path, visits from (
               select path, visits from tracking_page_counts
               where domain_id = ${domainId}
                 and visits_rank >= coalesce((select visits_rank from tracking_page_counts
                                              where domain_id = ${domainId}
                                              order by visits_rank desc offset ${TOP - 1} limit 1), -1)
               order by visits_rank desc) ranked
             order by visits desc fetch first ${TOP} rows with ties) top
           order by visits desc, path collate "C" asc limit ${TOP}) p) as pages`),
  );
  const totals = json<{ total: string; ai: string; last30: string; bots: string } | null>(row?.totals);
  const bots = json<
    {
      name: string;
      count: string;
      ai: boolean;
      verified: string;
      spoofed: string;
      signature: string;
      ip: string;
      rdns: string;
    }[]
  >(row?.bots ?? []);
  const pages = json<{ path: string; count: string }[]>(row?.pages ?? []);
  return {
    domain: hostname,
    totalVisits: Number(totals?.total ?? 0),
    uniqueBots: Number(totals?.bots ?? 0),
    aiBotVisits: Number(totals?.ai ?? 0),
    visitsLast30Days: Number(totals?.last30 ?? 0),
    topBots: bots.map((b) => {
      const [count, verified, spoofed] = [Number(b.count), Number(b.verified), Number(b.spoofed)];
      return {
        name: b.name,
        count,
        isAIBot: Boolean(b.ai),
        verification: {
          verified,
          unverified: count - verified - spoofed,
          spoofed,
          verifiedBy: { signature: Number(b.signature), ip: Number(b.ip), rdns: Number(b.rdns) },
        },
      };
    }),
    topPages: pages.map((p) => ({ url: p.path, count: Number(p.count) })),
  };
}
