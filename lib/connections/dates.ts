const DAY_MS = 86_400_000;

/** The window of `days` UTC days ending today, as YYYY-MM-DD. */
export function dayWindow(days: number, now = new Date()): { startDate: string; endDate: string } {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { startDate: iso(end - (days - 1) * DAY_MS), endDate: iso(end) };
}

/** GA4's 20261120 as 2026-11-20. */
export function fromCompactDate(value: string): string {
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : value;
}
