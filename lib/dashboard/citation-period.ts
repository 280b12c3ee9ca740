import { and, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { trackingDailyCitations, visits } from "@/lib/db/schema";
import { periodStart } from "./bot-period";

export interface CitationPeriod {
  /** The most cited paths of the period, with the engines that cited each. */
  topPages: { path: string; citations: number; engines: string[] }[];
  /** Citations per UTC day, oldest first, every day present. */
  trend: { day: string; citations: number }[];
}

/**
 * The citations page's top cited pages and daily trend for the selected period (today included). Reads the
 * partial index over citation visits and the daily citation rollup.
 */
export async function getCitationPeriod(
  db: DbOrTx,
  domainId: string,
  days: number,
  now = new Date(),
): Promise<CitationPeriod> {
  const start = periodStart(days, now);
  const first = start.toISOString().slice(0, 10);
  const [pages, daily] = await Promise.all([
    db
      .select({
        path: visits.path,
        citations: sql<number>`count(*)::int`,
        engines: sql<string[]>`array_agg(distinct ${visits.citationEngine})`,
      })
      .from(visits)
      .where(
        and(eq(visits.domainId, domainId), isNotNull(visits.citationEngine), gte(visits.occurredAt, start)),
      )
      .groupBy(visits.path)
      .orderBy(sql`count(*) desc`, visits.path)
      .limit(10),
    db
      .select({
        day: trackingDailyCitations.day,
        n: sql<number>`sum(${trackingDailyCitations.citations})::int`,
      })
      .from(trackingDailyCitations)
      .where(and(eq(trackingDailyCitations.domainId, domainId), gte(trackingDailyCitations.day, first)))
      .groupBy(trackingDailyCitations.day),
  ]);
  const byDay = new Map(daily.map((d) => [d.day, Number(d.n)]));
  return {
    topPages: pages.map((p) => ({ path: p.path, citations: Number(p.citations), engines: p.engines ?? [] })),
    trend: Array.from({ length: days }, (_, i) => {
      const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      return { day, citations: byDay.get(day) ?? 0 };
    }),
  };
}
