import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { visibilityObservations } from "@/lib/db/schema";
import { ENGINE_NAMES, type EngineName } from "@/lib/providers/engine-types";
import type { EngineResult } from "./schemas";
import { toRate } from "./score";

/** Observations are derived data kept this long (DESIGN: 13 months), then purged. */
const OBSERVATION_RETENTION = "13 months";

/**
 * Records one observation per engine that answered a completed check (failed engines observed nothing). Runs in
 * the caller's transaction, beside the job's completion, so a check is observed exactly once.
 */
export async function recordObservations(
  tx: DbOrTx,
  input: {
    accountId: string;
    jobId: string | null;
    domain: string;
    prompt: string;
    result: { results: readonly EngineResult[] } | EngineResult;
    observedAt?: Date;
  },
): Promise<number> {
  const entries = "results" in input.result ? input.result.results : [input.result];
  const rows = entries
    .filter((e) => !e.error)
    .map((e) => ({
      accountId: input.accountId,
      jobId: input.jobId,
      domain: input.domain,
      engine: e.engine,
      prompt: input.prompt,
      cited: e.cited,
      mentioned: e.mentionPosition > 0,
      position: e.mentionPosition,
      sentiment: e.sentiment,
      ...(input.observedAt ? { observedAt: input.observedAt } : {}),
    }));
  if (rows.length > 0) await tx.insert(visibilityObservations).values(rows);
  return rows.length;
}

interface VisibilityPoint {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  checks: number;
  citationRate: number;
  mentionRate: number;
}

interface VisibilitySeries {
  checks: number;
  citationRate: number;
  mentionRate: number;
  series: VisibilityPoint[];
}

export interface VisibilityReport {
  domain: string;
  days: number;
  /** Every engine's answers together. */
  overall: VisibilitySeries;
  /** The four engines in the API's order; an engine never checked has 0 checks and an empty series. */
  engines: (VisibilitySeries & { engine: EngineName })[];
}

/**
 * Citation and mention rates of a domain per engine and per UTC day over the last `days` days (today included):
 * the rate of a day is the share of that day's observations that cited (or mentioned) the domain.
 */
export async function readVisibility(
  db: DbOrTx,
  input: { accountId: string; domain: string; days: number; now?: Date },
): Promise<VisibilityReport> {
  const now = input.now ?? new Date();
  const since = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (input.days - 1)),
  );
  const t = visibilityObservations;
  const day = sql<string>`to_char(${t.observedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      engine: t.engine,
      day,
      checks: sql<number>`count(*)::int`,
      cited: sql<number>`(count(*) filter (where ${t.cited}))::int`,
      mentioned: sql<number>`(count(*) filter (where ${t.mentioned}))::int`,
    })
    .from(t)
    .where(and(eq(t.accountId, input.accountId), eq(t.domain, input.domain), gte(t.observedAt, since)))
    .groupBy(t.engine, day)
    .orderBy(day);

  const build = (list: typeof rows): VisibilitySeries => {
    const byDay = new Map<string, { checks: number; cited: number; mentioned: number }>();
    for (const r of list) {
      const sum = byDay.get(r.day) ?? { checks: 0, cited: 0, mentioned: 0 };
      sum.checks += Number(r.checks);
      sum.cited += Number(r.cited);
      sum.mentioned += Number(r.mentioned);
      byDay.set(r.day, sum);
    }
    const totals = { checks: 0, cited: 0, mentioned: 0 };
    const series = [...byDay].map(([d, s]) => {
      totals.checks += s.checks;
      totals.cited += s.cited;
      totals.mentioned += s.mentioned;
      return {
        day: d,
        checks: s.checks,
        citationRate: toRate(s.cited, s.checks),
        mentionRate: toRate(s.mentioned, s.checks),
      };
    });
    return {
      checks: totals.checks,
      citationRate: toRate(totals.cited, totals.checks),
      mentionRate: toRate(totals.mentioned, totals.checks),
      series,
    };
  };

  return {
    domain: input.domain,
    days: input.days,
    overall: build(rows),
    engines: ENGINE_NAMES.map((engine) => ({ engine, ...build(rows.filter((r) => r.engine === engine)) })),
  };
}

/**
 * The newest observations of a domain, newest first, for the dashboard's "latest answers" (the answer text itself
 * lives in the job's result while the job is kept; `jobId` links there and is null once the job is purged).
 */
export async function readLatestObservations(
  db: DbOrTx,
  input: { accountId: string; domain: string; limit: number },
) {
  const t = visibilityObservations;
  return db
    .select({
      jobId: t.jobId,
      engine: t.engine,
      prompt: t.prompt,
      cited: t.cited,
      mentioned: t.mentioned,
      position: t.position,
      sentiment: t.sentiment,
      observedAt: t.observedAt,
    })
    .from(t)
    .where(and(eq(t.accountId, input.accountId), eq(t.domain, input.domain)))
    .orderBy(desc(t.observedAt), desc(t.id))
    .limit(input.limit);
}

/** Deletes observations older than 13 months; returns how many went. */
export async function purgeObservations(db: DbOrTx, now: Date = new Date()): Promise<number> {
  const deleted = await db
    .delete(visibilityObservations)
    .where(
      lt(
        visibilityObservations.observedAt,
        sql`${now.toISOString()}::timestamptz - ${sql.raw(`interval '${OBSERVATION_RETENTION}'`)}`,
      ),
    )
    .returning({ id: visibilityObservations.id });
  return deleted.length;
}
