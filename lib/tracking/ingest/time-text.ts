// A batch's times, turned into Dates and text at ingest's rate (1000 events a batch, several batches a second).

/**
 * The Date constructor as this module found it when it loaded. Next's server replaces the global `Date` with a
 * wrapper (so that a prerender reading the clock is noticed) whose every construction goes through
 * `Reflect.construct` with `arguments`: 0.43 ms of the server's CPU per batch of 1000 events in the tracking bench,
 * half the cost of validating an event. `npm start` (server.ts) imports the routes, and with them this module,
 * before Next's server loads, so this is the native constructor there; where Next loaded first (its own route
 * mount), it is the wrapper, which gives the same Dates. Dates made by either are `instanceof Date`: they share the
 * prototype. Only for Dates made from a value: the wrapper's purpose is the clock (`new Date()`, `Date.now()`).
 */
export const DateFromValue: DateConstructor = Date;

const PAD2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0"));
const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));
const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the years toISOString writes with four digits. */
const FIRST_MS = -62_167_219_200_000;
const LAST_MS = 253_402_300_799_999;

/**
 * `new Date(ms).toISOString()`, written from the number: 1.0 µs for toISOString on Node 24 (V8 formats it
 * through printf), a tenth of that here. The calendar date is Howard Hinnant's days-to-civil algorithm, exact for
 * the proleptic Gregorian calendar Date uses; times outside years 0000-9999 (which toISOString writes as ±YYYYYY)
 * go to toISOString itself. A test compares both over 500,000 instants and every millisecond around boundary days.
 */
export function isoText(ms: number): string {
  if (!Number.isInteger(ms) || ms < FIRST_MS || ms > LAST_MS) return new DateFromValue(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const z = days + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153); // months from March
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${PAD2[Math.floor(year / 100)]}${PAD2[year % 100]}-${PAD2[month]}-${PAD2[day]}T${PAD2[hours]}:${PAD2[minutes]}:${PAD2[seconds]}.${PAD3[rest - seconds * 1000]}Z`;
}

/**
 * `Math.abs(ms).toString(16).padStart(12, "0")` for whole milliseconds below 16^12 (the year 10889), from a table
 * of byte pairs: 0.11 µs where the number's own radix conversion takes 0.56 µs. Larger counts go to toString.
 */
export function hex12(ms: number): string {
  const n = Math.abs(ms);
  if (!Number.isInteger(n) || n >= 2 ** 48) return n.toString(16).padStart(12, "0");
  const high = Math.floor(n / 16_777_216); // the upper 24 bits
  const low = n - high * 16_777_216;
  return (
    HEX2[high >>> 16]! +
    HEX2[(high >>> 8) & 255]! +
    HEX2[high & 255]! +
    HEX2[low >>> 16]! +
    HEX2[(low >>> 8) & 255]! +
    HEX2[low & 255]!
  );
}

/**
 * The time of a date-time that `z.iso.datetime({ offset: true })`'s pattern accepted (YYYY-MM-DDTHH:MM:SS, any
 * number of fraction digits, then Z or ±HH:MM), in milliseconds, as `Date.parse` reads it: the fraction cut to
 * milliseconds, the offset subtracted. 0.25 µs where Date's own parser takes 0.46 µs on Node 24. Years 0000-0099
 * go to Date.parse (Date.UTC reads them as 1900-1999). Only for text that pattern accepted: nothing is checked here.
 */
export function isoDateTimeMs(text: string): number {
  // Helpers at module level, not closures: the server's TypeScript loader names every closure it creates (a
  // defineProperty per call), which cost more than the parse saved.
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  if (year < 100) return Date.parse(text);
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(19) === 46 /* . */) {
    i = 20;
    for (let place = 100; ; place /= 10) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      if (place >= 1) ms += d * place;
      i++;
    }
  }
  const sign = text.charCodeAt(i); // "Z", "+" or "-"
  const offset =
    sign === 43 || sign === 45
      ? (sign === 43 ? 1 : -1) * (twoDigits(text, i + 1) * 60 + twoDigits(text, i + 4)) * 60_000
      : 0;
  return (
    Date.UTC(
      year,
      twoDigits(text, 5) - 1,
      twoDigits(text, 8),
      twoDigits(text, 11),
      twoDigits(text, 14),
      twoDigits(text, 17),
      ms,
    ) - offset
  );
}

function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
}
