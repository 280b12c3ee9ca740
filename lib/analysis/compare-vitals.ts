// Core Web Vitals between two runs: each metric's value and rating (good / needs-improvement / poor) before and
// after, and a snapshot of the result in compare-results' terms (the performance score, and each metric a check
// that passes when good, warns when it needs improvement, fails when poor). Pure (no I/O).
import type { ResultSnapshot } from "./compare-results";

type VitalRating = "good" | "needs-improvement" | "poor";
const VITALS = ["lcp", "inp", "cls"] as const;
type VitalName = (typeof VITALS)[number];
export type Vitals = Record<VitalName, { value: number; rating: VitalRating } | null>;

export interface VitalChange {
  metric: VitalName;
  before: number | null;
  after: number | null;
  /** after − before (ms; unitless for CLS); null when either run lacks the metric. */
  delta: number | null;
  ratingBefore: VitalRating | null;
  ratingAfter: VitalRating | null;
  ratingChanged: boolean;
}

interface CwvLike {
  performanceScore: number;
  lcp: { value: number; rating: VitalRating } | null;
  inp: { value: number; rating: VitalRating } | null;
  cls: { value: number; rating: VitalRating } | null;
}

const TITLES: Record<VitalName, string> = {
  lcp: "Largest Contentful Paint",
  inp: "Interaction to Next Paint",
  cls: "Cumulative Layout Shift",
};

const format = (metric: VitalName, value: number) =>
  metric === "cls" ? value.toFixed(3) : `${Math.round(value)} ms`;

/** The three vitals of a Core Web Vitals result (the values the result shows: field p75 when known, else lab). */
export function vitalsOf(result: unknown): Vitals | null {
  if (!result || typeof result !== "object") return null;
  const r = result as CwvLike;
  if (typeof r.performanceScore !== "number") return null;
  const pick = (m: VitalName) => {
    const v = r[m];
    return v && typeof v.value === "number" ? { value: v.value, rating: v.rating } : null;
  };
  return { lcp: pick("lcp"), inp: pick("inp"), cls: pick("cls") };
}

/** A Core Web Vitals result as a snapshot: `performance` score; each metric a check (poor is an error). */
export function vitalsSnapshot(result: unknown): ResultSnapshot | null {
  const vitals = vitalsOf(result);
  if (!vitals) return null;
  const r = result as CwvLike;
  const checks = VITALS.flatMap((m) => {
    const v = vitals[m];
    if (!v) return [];
    const status = v.rating === "good" ? "pass" : v.rating === "poor" ? "fail" : "warn";
    return [
      {
        id: `cwv.${m}`,
        status: status as "pass" | "warn" | "fail",
        title: TITLES[m],
        severity: v.rating === "poor" ? "error" : v.rating === "needs-improvement" ? "warning" : "notice",
        message: `${TITLES[m]} is ${format(m, v.value)} (${v.rating}).`,
      },
    ];
  });
  return { scores: { performance: r.performanceScore }, checks };
}

/** Each metric before and after, with its change and whether its rating moved. */
export function compareVitals(before: Vitals | null, after: Vitals | null): VitalChange[] {
  if (!before && !after) return [];
  return VITALS.map((metric) => {
    const b = before?.[metric] ?? null;
    const a = after?.[metric] ?? null;
    const delta =
      a && b ? (metric === "cls" ? Math.round((a.value - b.value) * 1000) / 1000 : a.value - b.value) : null;
    return {
      metric,
      before: b?.value ?? null,
      after: a?.value ?? null,
      delta,
      ratingBefore: b?.rating ?? null,
      ratingAfter: a?.rating ?? null,
      ratingChanged: (b?.rating ?? null) !== (a?.rating ?? null) && b !== null && a !== null,
    };
  });
}
