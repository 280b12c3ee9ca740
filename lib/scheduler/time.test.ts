import { describe, expect, test } from "vitest";
import { canonicalTimeZone, nextRunAfter, offsetInHour, zonedParts, zonedTimeToInstant } from "./time";

describe("canonicalTimeZone", () => {
  test.each([
    ["Europe/Paris", "Europe/Paris"],
    ["UTC", "UTC"],
    ["America/New_York", "America/New_York"],
  ])("%s is a zone", (zone, canonical) => expect(canonicalTimeZone(zone)).toBe(canonical));
  test.each(["Mars/Olympus", "+02:00", "", "CEST ", "Europe/Paris; drop table", "x".repeat(80)])(
    "%s is not",
    (zone) => expect(canonicalTimeZone(zone)).toBeNull(),
  );
});

describe("zonedTimeToInstant", () => {
  test("an ordinary hour", () => {
    expect(zonedTimeToInstant(2026, 7, 1, 9, "Europe/Paris").toISOString()).toBe("2026-07-01T07:00:00.000Z");
    expect(zonedTimeToInstant(2026, 1, 15, 9, "Europe/Paris").toISOString()).toBe("2026-01-15T08:00:00.000Z");
  });
  test("spring forward: 02:00 does not exist in Paris on 29 March 2026, the run is at 03:00 local", () => {
    const at = zonedTimeToInstant(2026, 3, 29, 2, "Europe/Paris");
    expect(at.toISOString()).toBe("2026-03-29T01:00:00.000Z");
    expect(zonedParts(at, "Europe/Paris").hour).toBe(3);
  });
  test("fall back: 02:00 happens twice in Paris on 25 October 2026, the first is taken", () => {
    expect(zonedTimeToInstant(2026, 10, 25, 2, "Europe/Paris").toISOString()).toBe(
      "2026-10-25T00:00:00.000Z",
    );
  });
  test("New York across its DST change keeps 09:00 local", () => {
    expect(zonedTimeToInstant(2026, 3, 7, 9, "America/New_York").toISOString()).toBe(
      "2026-03-07T14:00:00.000Z",
    );
    expect(zonedTimeToInstant(2026, 3, 9, 9, "America/New_York").toISOString()).toBe(
      "2026-03-09T13:00:00.000Z",
    );
  });
});

describe("nextRunAfter", () => {
  test("daily at 09:00 Paris with an offset, across the spring change", () => {
    const spec = { every: "day" as const, hour: 9, timeZone: "Europe/Paris" };
    const first = nextRunAfter(spec, new Date("2026-03-28T09:00:00Z"), 600);
    expect(first.toISOString()).toBe("2026-03-29T07:10:00.000Z");
    const second = nextRunAfter(spec, first, 600);
    expect(second.toISOString()).toBe("2026-03-30T07:10:00.000Z");
  });
  test("weekly on Monday at 23:00 Tokyo", () => {
    const spec = { every: "week" as const, hour: 23, weekday: 1, timeZone: "Asia/Tokyo" };
    const next = nextRunAfter(spec, new Date("2026-11-28T00:00:00Z"), 0);
    expect(next.toISOString()).toBe("2026-11-30T14:00:00.000Z");
    expect(zonedParts(next, "Asia/Tokyo")).toMatchObject({ weekday: 1, hour: 23 });
    expect(nextRunAfter(spec, next, 0).toISOString()).toBe("2026-12-07T14:00:00.000Z");
  });
  test("the same day when the hour is still ahead", () => {
    const spec = { every: "day" as const, hour: 18, timeZone: "UTC" };
    expect(nextRunAfter(spec, new Date("2026-11-28T17:00:00Z"), 59).toISOString()).toBe(
      "2026-11-28T18:00:59.000Z",
    );
  });
  test("offsets spread over the hour and stay put", () => {
    const offsets = Array.from({ length: 200 }, (_, i) => offsetInHour(`monitor-${i}`));
    expect(new Set(offsets.map((o) => Math.floor(o / 600))).size).toBe(6);
    expect(offsetInHour("monitor-1")).toBe(offsets[1]);
    expect(Math.max(...offsets)).toBeLessThan(3600);
  });
});
