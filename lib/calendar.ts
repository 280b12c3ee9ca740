// Dates from outside, held to what Postgres stores: a day its month has, in years 1-9999. Date is laxer on both
// counts (it rolls 2026-02-31 over to 3 March and takes year 0 and six-digit years), where Postgres refuses them: a
// 500 instead of the 400 the caller should see.

/** The YYYY-MM-DD that `text` begins with is a day its month has. */
export function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const day = new Date(0);
  day.setUTCFullYear(y, m - 1, d); // where Date.UTC would read years 0-99 as 1900-1999
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** A valid time in years 1-9999 UTC (an offset can push 9999-12-31 into 10000). */
export function inPostgresYears(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999;
}
