import { describe, expect, test } from "vitest";
import { scoreAuthority } from "./authority";

describe("scoreAuthority", () => {
  test("the best-ranked vertex scores 100 and the last scores near 0", () => {
    expect(scoreAuthority(1, 1, 1_000_000)).toBe(100);
    expect(scoreAuthority(1_000_000, 1_000_000, 1_000_000)).toBe(0);
  });
  test("each tenfold step down the ranking costs the same points", () => {
    const a = scoreAuthority(100, 100, 1_000_000);
    const b = scoreAuthority(1_000, 1_000, 1_000_000);
    const c = scoreAuthority(10_000, 10_000, 1_000_000);
    expect(a - b).toBe(b - c);
    expect(a).toBeGreaterThan(b);
  });
  test("harmonic centrality and PageRank weigh equally", () => {
    expect(scoreAuthority(10, 10_000, 1_000_000)).toBe(scoreAuthority(10_000, 10, 1_000_000));
  });
  test("a position beyond the declared count still stays within 0..100", () => {
    expect(scoreAuthority(5, 50, 10)).toBeGreaterThanOrEqual(0);
  });
});
