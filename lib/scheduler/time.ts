/**
 * Schedule arithmetic: "every day (or week, on a weekday) at an hour in an IANA time zone", spread over the hour by
 * a stable per-schedule offset. DST-correct: the wall-clock hour is turned into an instant with the zone's offset
 * on that day; a wall-clock time that does not exist (the spring-forward gap) runs at the first instant after it,
 * and one that happens twice (fall-back) runs at the first of the two.
 */
import { createHash } from "node:crypto";

export interface ScheduleSpec {
  every: "day" | "week";
  /** 0..23, wall-clock hour in `timeZone`. */
  hour: number;
  /** 0 = Sunday .. 6 = Saturday, for weekly schedules. */
  weekday?: number | null;
  timeZone: string;
}

/** The zone's canonical name when `zone` is an IANA time zone this runtime knows, else null. */
export function canonicalTimeZone(zone: string): string | null {
  if (typeof zone !== "string" || zone.length === 0 || zone.length > 64) return null;
  // Offsets ("+02:00") and abbreviations are not zones: they have no DST rules of their own.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return null;
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
    const known = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"]);
    return known.has(resolved) || known.has(zone) ? resolved : null;
  } catch {
    return null;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The wall-clock fields of an instant in a zone. */
export function zonedParts(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ""),
  };
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const p = zonedParts(new Date(ms), timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant of a wall-clock time in a zone (gap: the first instant after it; overlap: the earlier one). */
export function zonedTimeToInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  timeZone: string,
): Date {
  const wall = Date.UTC(year, month - 1, day, hour);
  // Try the offsets in force a day either side: the earlier instant that shows this wall time wins.
  const candidates = [offsetAt(wall - 86_400_000, timeZone), offsetAt(wall + 86_400_000, timeZone)]
    .map((offset) => wall - offset)
    .sort((a, b) => a - b);
  for (const t of candidates) {
    const p = zonedParts(new Date(t), timeZone);
    if (p.year === year && p.month === month && p.day === day && p.hour === hour) return new Date(t);
  }
  // In a gap the hour does not exist that day: read with the offset before the jump, the wall time lands just
  // past the gap (02:00 → 03:00 when the clocks go forward an hour at 02:00).
  return new Date(wall - offsetAt(wall - 86_400_000, timeZone));
}

/** A stable offset in seconds inside the hour for a schedule id: runs spread over the hour, not all at :00. */
export function offsetInHour(id: string): number {
  return createHash("sha256").update(id).digest().readUInt32BE(0) % 3600;
}

/**
 * The first run time strictly after `after`: the schedule's wall-clock hour on the next matching day, plus the
 * schedule's offset inside the hour.
 */
export function nextRunAfter(spec: ScheduleSpec, after: Date, offsetSeconds: number): Date {
  const local = zonedParts(after, spec.timeZone);
  // Walk calendar days from the day before (an offset can pull the start across midnight) for two weeks.
  const start = Date.UTC(local.year, local.month - 1, local.day);
  for (let d = -1; d <= 15; d++) {
    const day = new Date(start + d * 86_400_000);
    const weekday = day.getUTCDay();
    if (spec.every === "week" && weekday !== spec.weekday) continue;
    const at = zonedTimeToInstant(
      day.getUTCFullYear(),
      day.getUTCMonth() + 1,
      day.getUTCDate(),
      spec.hour,
      spec.timeZone,
    );
    const run = new Date(at.getTime() + offsetSeconds * 1000);
    if (run.getTime() > after.getTime()) return run;
  }
  throw new Error("no run time found within two weeks");
}
