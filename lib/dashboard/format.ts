const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** A timestamp as "22 Jul 2026, 04:10 UTC" (UTC, so server and browser render the same text). */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return "—";
  return `${dateTime.format(new Date(value))} UTC`;
}

/** A timestamp in the given (default: the runtime's own) time zone, "22 Jul 2026, 05:10". */
export function formatLocalDateTime(value: string | Date, timeZone?: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone }).format(
    new Date(value),
  );
}

export const formatNumber = (n: number) => new Intl.NumberFormat("en-US").format(n);

/** "12 s", "3 min 5 s", "1 h 2 min": how long a job has been waiting or running. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}
