import { and, asc, eq, gte, lt } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { monitorAnswers, monitorRuns } from "@/lib/db/schema";
import { countAnswers, rateSet } from "./rates";
import type { RateSet } from "./schemas";
import { requireMonitor } from "./service";

/** One run's rates for the trend chart: the run's succeeded answers only, each rate with n and its interval. */
export interface RunPoint {
  runId: string;
  at: string;
  answers: number;
  shareOfVoice: RateSet["shareOfVoice"];
  mentionRate: RateSet["mentionRate"];
  citationRate: RateSet["citationRate"];
}

/**
 * The brand's rates per run over a period (runs created in [from, to), oldest first), from the same counting
 * as the report (`countAnswers` / `rateSet`: 95% Wilson intervals). Runs without a succeeded answer (skipped,
 * failed, still running with nothing answered) are left out: a point without answers would be no measurement.
 */
export async function runSeries(
  db: DbOrTx,
  accountId: string,
  monitorId: string,
  period: { from: Date; to: Date },
): Promise<RunPoint[]> {
  await requireMonitor(db, accountId, monitorId);
  const rows = await db
    .select({
      runId: monitorRuns.id,
      runAt: monitorRuns.createdAt,
      mentioned: monitorAnswers.mentioned,
      position: monitorAnswers.position,
      ownCited: monitorAnswers.ownCited,
      sentiment: monitorAnswers.sentiment,
      competitors: monitorAnswers.competitors,
    })
    .from(monitorAnswers)
    .innerJoin(monitorRuns, eq(monitorRuns.id, monitorAnswers.runId))
    .where(
      and(
        eq(monitorAnswers.monitorId, monitorId),
        eq(monitorAnswers.status, "succeeded"),
        gte(monitorRuns.createdAt, period.from),
        lt(monitorRuns.createdAt, period.to),
      ),
    )
    .orderBy(asc(monitorRuns.createdAt));
  const runs = new Map<string, { at: Date; rows: typeof rows }>();
  for (const r of rows) {
    const run = runs.get(r.runId) ?? { at: r.runAt, rows: [] };
    run.rows.push(r);
    runs.set(r.runId, run);
  }
  return [...runs].map(([runId, run]) => {
    const rates = rateSet(
      countAnswers(
        run.rows.map((a) => ({
          mentioned: a.mentioned ?? false,
          position: a.position,
          ownCited: a.ownCited ?? false,
          sentiment: a.sentiment,
          competitors: a.competitors ?? [],
        })),
      ),
    );
    return {
      runId,
      at: run.at.toISOString(),
      answers: rates.answers,
      shareOfVoice: rates.shareOfVoice,
      mentionRate: rates.mentionRate,
      citationRate: rates.citationRate,
    };
  });
}
