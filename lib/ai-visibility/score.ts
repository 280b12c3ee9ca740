import type { EngineName } from "@/lib/providers/engine-types";
import type { AiCitationCheckResult, EngineResult } from "./schemas";

/**
 * Visibility score of one engine's answer, 0..100:
 *   50 when the engine cites the domain (a source URL on its registrable domain),
 * + 30 × position weight when the answer mentions it, the weight being 1 for the first brand named, 0.75 for
 *      the second, 0.5 for the third and 0.25 from the fourth on,
 * + 20 when the sentences that mention it are positive, 10 when neutral, 0 when negative (only when mentioned).
 * `visibilityScore` is the mean over the engines that answered, rounded; engines that failed are left out.
 */
function scoreEngine(entry: EngineResult): number {
  let points = entry.cited ? 50 : 0;
  if (entry.mentionPosition > 0) {
    points += 30 * Math.max(0.25, 1 - 0.25 * (entry.mentionPosition - 1));
    points += entry.sentiment === "positive" ? 20 : entry.sentiment === "neutral" ? 10 : 0;
  }
  return points;
}

/** A ratio of engines, kept to four decimals. */
export function toRate(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 10_000) / 10_000;
}

/**
 * The spec's summary. `citationRate` = engines that cited the domain ÷ engines checked, where an engine counts as
 * checked when it answered; a failed engine (its entry carries `error`) is in none of the lists.
 */
export function summarize(
  entries: readonly EngineResult[],
  competitorCitations: ReadonlyMap<string, EngineName[]>,
): AiCitationCheckResult["summary"] {
  const answered = entries.filter((e) => !e.error);
  const citedIn = answered.filter((e) => e.cited).map((e) => e.engine);
  const mentionedIn = answered.filter((e) => e.mentionPosition > 0).map((e) => e.engine);
  const notFoundIn = answered.filter((e) => !e.cited && e.mentionPosition === 0).map((e) => e.engine);
  const total = answered.reduce((sum, e) => sum + scoreEngine(e), 0);
  return {
    citedIn,
    mentionedIn,
    notFoundIn,
    citationRate: toRate(citedIn.length, answered.length),
    visibilityScore: answered.length === 0 ? 0 : Math.round(total / answered.length),
    competitors: [...competitorCitations].map(([domain, engines]) => ({
      domain,
      citedIn: engines,
      citationRate: toRate(engines.length, answered.length),
    })),
  };
}
