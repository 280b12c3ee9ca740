import { describe, expect, test } from "vitest";
import { z } from "zod";
import { DateFromValue, hex12, isoDateTimeMs, isoText } from "./time-text";

/** A deterministic stream of numbers in [0, 1) (mulberry32), so a failure names an instant that reproduces. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const YEAR_0 = -62_167_219_200_000;
const YEAR_10000 = 253_402_300_800_000;

describe("isoText", () => {
  test("writes what toISOString writes, over 500,000 instants of years 0000-9999", () => {
    const next = random(18);
    const wrong: number[] = [];
    for (let i = 0; i < 500_000; i++) {
      const ms = YEAR_0 + Math.floor(next() * (YEAR_10000 - YEAR_0));
      if (isoText(ms) !== new Date(ms).toISOString()) wrong.push(ms);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test("every millisecond of the days around month, leap-day, century and era boundaries", () => {
    const days = [
      "1970-01-01",
      "1969-12-31",
      "2000-02-28",
      "2000-02-29",
      "2000-03-01",
      "1900-02-28",
      "1900-03-01",
      "2024-02-29",
      "2026-12-31",
      "2027-01-01",
      "0000-01-01",
      "0000-02-29",
      "0001-01-01",
      "9999-12-31",
      "1600-02-29",
      "2100-02-28",
      "2100-03-01",
    ];
    for (const day of days) {
      const start = Date.parse(`${day}T00:00:00Z`);
      for (let ms = start - 1000; ms < start + 1000; ms++)
        expect(isoText(ms)).toBe(new Date(ms).toISOString());
      for (let ms = start; ms < start + 86_400_000; ms += 59_999)
        expect(isoText(ms)).toBe(new Date(ms).toISOString());
    }
  });

  test("the first and last instants with four-digit years, and past them toISOString's own six-digit form", () => {
    expect(isoText(YEAR_0)).toBe("0000-01-01T00:00:00.000Z");
    expect(isoText(YEAR_10000 - 1)).toBe("9999-12-31T23:59:59.999Z");
    expect(isoText(YEAR_10000)).toBe("+010000-01-01T00:00:00.000Z");
    expect(isoText(YEAR_0 - 1)).toBe("-000001-12-31T23:59:59.999Z");
  });
});

describe("hex12", () => {
  test("is the milliseconds' hexadecimal padded to 12 digits, as toString(16) writes it", () => {
    const next = random(48);
    const cases = [
      0,
      1,
      15,
      16,
      255,
      256,
      16_777_215,
      16_777_216,
      2 ** 48 - 1,
      -1,
      -16_777_216,
      Date.UTC(2026, 10, 28),
    ];
    for (let i = 0; i < 200_000; i++) cases.push(Math.floor((next() - 0.5) * 2 ** 49));
    expect(cases.filter((ms) => hex12(ms) !== Math.abs(ms).toString(16).padStart(12, "0"))).toEqual([]);
  });

  test("counts of 16^12 and more keep all their digits", () => {
    expect(hex12(2 ** 48)).toBe("1000000000000");
    expect(hex12(-(2 ** 50))).toBe("4000000000000");
  });
});

describe("DateFromValue", () => {
  test("is the constructor found at load, so Next's later replacement of the global Date does not reach it", async () => {
    const original = globalThis.Date;
    try {
      // What Next's server does when it loads (node-environment-extensions/date).
      await import("next/dist/server/node-environment-extensions/date.js" as string);
      expect(globalThis.Date).not.toBe(original);
      expect(DateFromValue).toBe(original);
      const made = new DateFromValue("2026-11-28T06:00:00.000Z");
      expect(made).toBeInstanceOf(globalThis.Date);
      expect(made.getTime()).toBe(new globalThis.Date("2026-11-28T06:00:00.000Z").getTime());
    } finally {
      globalThis.Date = original;
      Object.defineProperty(original.prototype, "constructor", {
        value: original,
        writable: true,
        configurable: true,
      });
    }
  });
});

describe("isoDateTimeMs", () => {
  const ISO_DATETIME: RegExp = z.iso.datetime({ offset: true })._zod.def.pattern!;
  const two = (n: number) => String(n).padStart(2, "0");

  test("reads what Date.parse reads, over 300,000 date-times of every form the pattern takes", () => {
    const next = random(7);
    const wrong: string[] = [];
    for (let i = 0; i < 300_000; i++) {
      const base = new Date(YEAR_0 + Math.floor(next() * (YEAR_10000 - YEAR_0))).toISOString().slice(0, 19);
      const digits = Math.floor(next() * 10); // 0: no fraction
      const fraction =
        digits === 0 ? "" : `.${String(Math.floor(next() * 10 ** digits)).padStart(digits, "0")}`;
      const zone =
        next() < 0.4
          ? "Z"
          : `${next() < 0.5 ? "+" : "-"}${two(Math.floor(next() * 24))}:${two(Math.floor(next() * 60))}`;
      const text = `${base}${fraction}${zone}`;
      if (!ISO_DATETIME.test(text)) throw new Error(`the pattern refuses ${text}`);
      if (isoDateTimeMs(text) !== Date.parse(text)) wrong.push(text);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test.each([
    "2026-11-28T06:00:00Z",
    "2026-11-28T06:00:00.5Z",
    "2026-11-28T06:00:00.123456789+05:30",
    "2026-11-28T06:00:00.9999999999999999999999-23:59",
    "2024-02-29T23:59:59.999+00:00",
    "0050-06-15T12:00:00.250Z",
    "0000-01-01T00:00:00.000+01:00",
    "9999-12-31T23:59:59.999-01:00",
  ])("%s", (text) => {
    expect(ISO_DATETIME.test(text)).toBe(true);
    expect(isoDateTimeMs(text)).toBe(Date.parse(text));
  });
});
