import { describe, expect, test } from "vitest";
import { LruCache } from "./lru-cache";

describe("LruCache", () => {
  test("evicts the least recently used entry when full", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // "b" is now the eldest
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  test("an entry read since the last eviction survives the next one, however old; the eldest unread goes", () => {
    const cache = new LruCache<string, number>(4);
    for (const [i, key] of ["a", "b", "c", "d"].entries()) cache.set(key, i);
    cache.get("a");
    cache.get("c");
    cache.set("e", 4); // drops b, the eldest not read
    expect([..."abcde"].map((k) => cache.get(k) !== undefined)).toEqual([true, false, true, true, true]);
    // Every entry was just read: the walk clears every mark, then drops the first in the cache's order, which is
    // now c, d, a, e (a went to the back when it got its second chance).
    cache.set("f", 5);
    expect(cache.size).toBe(4);
    expect([..."acdef"].map((k) => cache.get(k) !== undefined)).toEqual([true, false, true, true, true]);
  });

  test("setting a key it holds replaces the value and counts as a use", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 10);
    expect(cache.size).toBe(2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(10);
    expect(cache.get("b")).toBeUndefined();
  });

  test("never holds more than its capacity, whatever the mix of reads and writes", () => {
    const cache = new LruCache<number, number>(100);
    for (let i = 0; i < 10_000; i++) {
      cache.set(i % 317, i);
      cache.get((i * 7) % 211);
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    // A key read on every round stays, while the other keys cycle through.
    const hot = new LruCache<number, string>(10);
    hot.set(-1, "hot");
    for (let i = 0; i < 1000; i++) {
      expect(hot.get(-1)).toBe("hot");
      hot.set(i, "cold");
    }
  });

  test("rejects a capacity below one", () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
