import { and, eq, gte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { creditLedger } from "@/lib/db/schema";

export interface DailySpend {
  /** YYYY-MM-DD (UTC) */
  day: string;
  spent: number;
  refunded: number;
}

/** Credits spent and refunded per UTC day over the last `days` days, every day present (zeros included). */
export async function getSpendSeries(
  db: DbOrTx,
  accountId: string,
  days = 30,
  now = new Date(),
): Promise<DailySpend[]> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const rows = await db
    .select({
      day: sql<string>`to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
      spent: sql<number>`coalesce(sum(case when ${creditLedger.type} = 'spend' then -${creditLedger.amount} else 0 end), 0)::int`,
      refunded: sql<number>`coalesce(sum(case when ${creditLedger.type} = 'refund' then ${creditLedger.amount} else 0 end), 0)::int`,
    })
    .from(creditLedger)
    .where(and(eq(creditLedger.accountId, accountId), gte(creditLedger.createdAt, start)))
    .groupBy(sql`1`);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const series: DailySpend[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(day);
    series.push({ day, spent: Number(row?.spent ?? 0), refunded: Number(row?.refunded ?? 0) });
  }
  return series;
}
