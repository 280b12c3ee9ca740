const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** A timestamp as "22 Nov 2026, 04:10 UTC" (UTC, so server and browser render the same text). */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return "—";
  return `${dateTime.format(new Date(value))} UTC`;
}

export const formatNumber = (n: number) => new Intl.NumberFormat("en-US").format(n);
