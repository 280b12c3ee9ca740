import type { Rating } from "./result-schema";

/**
 * Google's published thresholds (web.dev/vitals): a value at or under the first bound is good,
 * over the second is poor. TBT and Speed Index have none of their own; they take Lighthouse's
 * scoring colours instead (see rateByScore).
 */
export const THRESHOLDS = {
  lcp: [2500, 4000],
  inp: [200, 500],
  cls: [0.1, 0.25],
  fcp: [1800, 3000],
  ttfb: [800, 1800],
} as const;
export type RatedMetric = keyof typeof THRESHOLDS;

export function rateMetric(metric: RatedMetric, value: number): Rating {
  const [good, poor] = THRESHOLDS[metric];
  if (value <= good) return "good";
  return value <= poor ? "needs-improvement" : "poor";
}

/** Lighthouse colours a metric green from 0.9 and orange from 0.5, by the form factor's own curve. */
export function rateByScore(score: number | null | undefined): Rating {
  if (score == null) return "poor";
  if (score >= 0.9) return "good";
  return score >= 0.5 ? "needs-improvement" : "poor";
}
