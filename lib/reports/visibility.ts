import { and, eq, gte, lt, sql } from "drizzle-orm";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import { readVisibility } from "@/lib/ai-visibility/observations";
import type { DbOrTx } from "@/lib/db/client";
import { visibilityObservations } from "@/lib/db/schema";
import type { LegacyVisibility } from "./api-schemas";

const t = visibilityObservations;

/**
 * The visibility score of one observed answer, in SQL: the ai-citation-check tool's per-engine score (50 when
 * cited; + 30 × position weight when mentioned, 1 for first named down to 0.25 from the fourth; + 20 positive,
 * 10 neutral when mentioned).
 */
const observationScore = sql<number>`(
  case when ${t.cited} then 50 else 0 end
  + case when ${t.mentioned} then 30 * greatest(0.25, 1 - 0.25 * (${t.position} - 1))
      + case ${t.sentiment} when 'positive' then 20 when 'neutral' then 10 else 0 end
    else 0 end)`;

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * GET /api/analytics/visibility: the AI visibility series of a registered domain (from the ai-citation-check and
 * brand-visibility observations) — GET /api/v1/visibility's citation and mention rates, plus the mean visibility
 * score per engine and overall, per UTC day.
 */
export async function getScoredVisibility(
  db: DbOrTx,
  accountId: string,
  query: { domain: string; days: number; now?: Date },
): Promise<LegacyVisibility> {
  const row = await requireRegisteredDomain(db, accountId, query.domain);
  const now = query.now ?? new Date();
  const base = await readVisibility(db, { accountId, domain: row.hostname, days: query.days, now });
  const since = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (query.days - 1)),
  );
  const day = sql<string>`to_char(${t.observedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const sums = await db
    .select({
      engine: t.engine,
      day,
      checks: sql<number>`count(*)::int`,
      total: sql<number>`sum(${observationScore})::float8`,
    })
    .from(t)
    .where(and(eq(t.accountId, accountId), eq(t.domain, row.hostname), gte(t.observedAt, since)))
    .groupBy(t.engine, day);
  const score = (rows: typeof sums) => {
    const checks = rows.reduce((s, r) => s + Number(r.checks), 0);
    return checks === 0 ? 0 : round1(rows.reduce((s, r) => s + Number(r.total), 0) / checks);
  };
  const withScores = <S extends { series: { day: string }[] }>(series: S, rows: typeof sums) => ({
    ...series,
    visibilityScore: score(rows),
    series: series.series.map((p) => ({ ...p, visibilityScore: score(rows.filter((r) => r.day === p.day)) })),
  });
  return {
    domain: base.domain,
    days: base.days,
    overall: withScores(base.overall, sums) as LegacyVisibility["overall"],
    engines: base.engines.map((e) =>
      withScores(
        e,
        sums.filter((r) => r.engine === e.engine),
      ),
    ) as LegacyVisibility["engines"],
  };
}

/** Totals of one window [from, to) for the performance report. */
export async function visibilityTotals(db: DbOrTx, accountId: string, domain: string, from: Date, to: Date) {
  const [row] = await db
    .select({
      checks: sql<number>`count(*)::int`,
      cited: sql<number>`(count(*) filter (where ${t.cited}))::int`,
      mentioned: sql<number>`(count(*) filter (where ${t.mentioned}))::int`,
      total: sql<number>`coalesce(sum(${observationScore}), 0)::float8`,
    })
    .from(t)
    .where(
      and(eq(t.accountId, accountId), eq(t.domain, domain), gte(t.observedAt, from), lt(t.observedAt, to)),
    );
  const checks = Number(row?.checks ?? 0);
  const rate = (n: number) => (checks === 0 ? 0 : Math.round((n / checks) * 10_000) / 10_000);
  return {
    checks,
    citationRate: rate(Number(row?.cited ?? 0)),
    mentionRate: rate(Number(row?.mentioned ?? 0)),
    visibilityScore: checks === 0 ? 0 : round1(Number(row?.total ?? 0) / checks),
  };
}
