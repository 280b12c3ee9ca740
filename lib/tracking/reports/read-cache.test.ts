import { describe, expect, test } from "vitest";
import { ReadCache, utcDay } from "./read-cache";

describe("ReadCache", () => {
  test("answers from memory for 120 s, then loads again", async () => {
    let now = 1_000_000;
    const cache = new ReadCache();
    cache.setClock(() => now);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.getOrLoad("k", load)).toBe(1);
    now += 119_999;
    expect(await cache.getOrLoad("k", load)).toBe(1);
    now += 1;
    expect(await cache.getOrLoad("k", load)).toBe(2);
  });

  test("keys are separate and clear() empties it", async () => {
    const cache = new ReadCache();
    expect(await cache.getOrLoad("a", async () => "A")).toBe("A");
    expect(await cache.getOrLoad("b", async () => "B")).toBe("B");
    expect(await cache.getOrLoad("a", async () => "other")).toBe("A");
    cache.clear();
    expect(await cache.getOrLoad("a", async () => "fresh")).toBe("fresh");
  });

  test("a failed load is not cached", async () => {
    const cache = new ReadCache();
    await expect(cache.getOrLoad("x", async () => Promise.reject(new Error("db down")))).rejects.toThrow();
    expect(await cache.getOrLoad("x", async () => 1)).toBe(1);
  });

  test("bounded: the least recently used entries go first", async () => {
    const cache = new ReadCache();
    for (let i = 0; i < 5_001; i++) await cache.getOrLoad(`k${i}`, async () => i);
    expect(await cache.getOrLoad("k0", async () => -1)).toBe(-1);
    expect(await cache.getOrLoad("k5000", async () => -1)).toBe(5000);
  });
});

describe("utcDay", () => {
  const cases: [string, number, string][] = [
    ["2026-03-01T00:30:00Z", 0, "2026-03-01"],
    ["2026-03-01T23:59:59Z", 1, "2026-02-28"],
    ["2024-03-01T12:00:00Z", 1, "2024-02-29"],
    ["2026-01-01T00:00:00Z", 29, "2025-12-03"],
    ["2026-11-22T04:00:00+05:00", 0, "2026-11-21"],
  ];
  for (const [at, back, day] of cases) {
    test(`${at} − ${back} days = ${day}`, () => expect(utcDay(Date.parse(at), back)).toBe(day));
  }
});
