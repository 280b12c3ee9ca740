import { describe, expect, test } from "vitest";
import { inPostgresYears, isCalendarDay } from "./calendar";

describe("isCalendarDay", () => {
  test.each([
    ["2026-01-31", true],
    ["2026-02-28T23:59:59Z", true],
    ["2024-02-29", true],
    ["2000-02-29", true],
    ["0004-02-29", true],
    ["0050-06-15T00:00:00.000Z", true],
    ["9999-12-31T23:59:59.999999Z", true],
    ["2026-02-29", false],
    ["1900-02-29", false],
    ["0100-02-29", false],
    ["2026-02-31T00:00:00Z", false],
    ["2026-04-31", false],
    ["2026-13-01", false],
    ["2026-00-10", false],
    ["2026-01-00", false],
    ["2026-1-01", false],
    ["yesterday", false],
    ["", false],
  ])("%s → %s", (text, expected) => expect(isCalendarDay(text)).toBe(expected));
});

describe("inPostgresYears", () => {
  test.each([
    ["0001-01-01T00:00:00Z", true],
    ["9999-12-31T23:59:59Z", true],
    ["9999-12-31T23:00:00-02:00", false],
    ["0000-06-01T00:00:00Z", false],
    ["+010000-01-01T00:00:00Z", false],
    ["-000001-01-01T00:00:00Z", false],
    ["not a date", false],
  ])("%s → %s", (text, expected) => expect(inPostgresYears(new Date(text))).toBe(expected));
});
