import { sql } from "drizzle-orm";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import type { CitationsReport } from "../api-schemas";
import { rawVisits } from "../raw-visits/store";
import { trackingReadCache, utcDay } from "./read-cache";
import { apiVerification } from "./visits-list";

export interface CitationsQuery {
  domain: string;
  /** Look-back window in UTC days, today included (1..90). */
  days: number;
  /** Most recent citations listed (1..200). */
  limit: number;
}

/**
 * GET /citations: AI engines citing a registered domain (403 FORBIDDEN_SCOPE otherwise) over the last `days`
 * UTC days, today included: totals per engine from the daily rollup, the newest `limit` citations from the
 * visits (a partial index holds only citations). Cached about 2 minutes.
 */
export async function getCitations(db: Db, accountId: string, q: CitationsQuery): Promise<CitationsReport> {
  const row = await requireRegisteredDomain(db, accountId, q.domain);
  return trackingReadCache.getOrLoad(`citations|${accountId}|${row.id}|${q.days}|${q.limit}`, () =>
    readCitations(db, row.id, row.hostname, q, trackingReadCache.now()),
  );
}

async function readCitations(db: Db, domainId: string, hostname: string, q: CitationsQuery, now: number) {
  const firstDay = utcDay(now, q.days - 1);
  const byBot = rowsOf<{ bot: string; count: string }>(
    await db.execute(sql`
      select engine as bot, sum(citations)::text as count from tracking_daily_citations
      where domain_id = ${domainId} and day >= ${firstDay}::date
      group by engine order by sum(citations) desc, engine collate "C" asc`),
  ).map((r) => ({ bot: r.bot, count: Number(r.count) }));
  const recent = await rawVisits.recentCitations(db, domainId, new Date(`${firstDay}T00:00:00Z`), q.limit);
  return {
    domain: hostname,
    periodDays: q.days,
    total: byBot.reduce((sum, b) => sum + b.count, 0),
    byBot,
    citations: recent.map((c) => ({
      bot: c.engine ?? "",
      path: c.path,
      timestamp: c.at.toISOString(),
      verification: apiVerification(c.verification),
      verificationMethod: c.verification === "unknown" ? null : (c.method ?? null),
    })),
  };
}
