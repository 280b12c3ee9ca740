/** A figure over the last 7 days beside the same figure over the 7 days before: like compared with like. */
export interface WeekComparison {
  current: number;
  previous: number;
  /** Relative change in percent, rounded; null when the previous week is zero (no base to compare with). */
  changePct: number | null;
}

/**
 * Compares the last 7 entries of a daily series (oldest first, one entry per day, the last being today) with the
 * 7 before. Null values (a source without data that day) count as nothing; null when the series has no value at
 * all in those 14 days.
 */
export function compareWeeks(values: readonly (number | null)[]): WeekComparison | null {
  const last14 = values.slice(-14);
  if (last14.every((v) => v === null)) return null;
  const sum = (xs: readonly (number | null)[]) => xs.reduce<number>((s, v) => s + (v ?? 0), 0);
  const current = sum(last14.slice(-7));
  const previous = sum(last14.slice(0, Math.max(0, last14.length - 7)));
  return {
    current,
    previous,
    changePct: previous === 0 ? null : Math.round(((current - previous) / previous) * 100),
  };
}

/** "+12% on the 7 days before", "no change", "new this week" — the comparison in words. */
export function describeChange(c: WeekComparison): string {
  if (c.changePct === null) return c.current > 0 ? "none the 7 days before" : "none in either week";
  if (c.changePct === 0) return "same as the 7 days before";
  return `${c.changePct > 0 ? "+" : "−"}${Math.abs(c.changePct)}% on the 7 days before`;
}
