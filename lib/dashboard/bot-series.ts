import { and, eq, gte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { trackingDailyBots } from "@/lib/db/schema";

export interface PurposeSeries {
  /** The purposes present in the window, most visits first. */
  purposes: string[];
  /** One row per UTC day (every day present): { day, [purpose]: visits }. */
  days: Record<string, string | number>[];
}

/**
 * Bot visits per UTC day and bot purpose over the last `days` days (today included), from the tracking
 * module's daily rollup. The dashboard's "visits over time by purpose" chart; the API has no such series.
 */
export async function getBotPurposeSeries(
  db: DbOrTx,
  domainId: string,
  days: number,
  now = new Date(),
): Promise<PurposeSeries> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const first = start.toISOString().slice(0, 10);
  const rows = await db
    .select({
      day: trackingDailyBots.day,
      purpose: trackingDailyBots.botPurpose,
      visits: sql<number>`sum(${trackingDailyBots.visits})::int`,
    })
    .from(trackingDailyBots)
    .where(and(eq(trackingDailyBots.domainId, domainId), gte(trackingDailyBots.day, first)))
    .groupBy(trackingDailyBots.day, trackingDailyBots.botPurpose);
  const totals = new Map<string, number>();
  const cells = new Map<string, number>();
  for (const r of rows) {
    const v = Number(r.visits);
    totals.set(r.purpose, (totals.get(r.purpose) ?? 0) + v);
    cells.set(`${r.day}|${r.purpose}`, v);
  }
  const purposes = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p);
  const series: Record<string, string | number>[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const row: Record<string, string | number> = { day };
    for (const p of purposes) row[p] = cells.get(`${day}|${p}`) ?? 0;
    series.push(row);
  }
  return { purposes, days: series };
}
