import { describe, expect, test } from "vitest";
import { compareResults } from "./compare-results";
import { compareVitals, vitalsOf, vitalsSnapshot } from "./compare-vitals";

const result = (
  score: number,
  lcp: [number, string],
  inp: [number, string] | null,
  cls: [number, string],
) => ({
  performanceScore: score,
  lcp: { value: lcp[0], rating: lcp[1], source: "lab" },
  inp: inp ? { value: inp[0], rating: inp[1], source: "field" } : null,
  cls: { value: cls[0], rating: cls[1], source: "lab" },
});

describe("Core Web Vitals between two runs", () => {
  const before = result(92, [2100, "good"], [180, "good"], [0.05, "good"]);
  const after = result(61, [4600, "poor"], [320, "needs-improvement"], [0.04, "good"]);

  test("each metric's change and rating change", () => {
    const changes = compareVitals(vitalsOf(before), vitalsOf(after));
    expect(changes).toEqual([
      {
        metric: "lcp",
        before: 2100,
        after: 4600,
        delta: 2500,
        ratingBefore: "good",
        ratingAfter: "poor",
        ratingChanged: true,
      },
      {
        metric: "inp",
        before: 180,
        after: 320,
        delta: 140,
        ratingBefore: "good",
        ratingAfter: "needs-improvement",
        ratingChanged: true,
      },
      {
        metric: "cls",
        before: 0.05,
        after: 0.04,
        delta: -0.01,
        ratingBefore: "good",
        ratingAfter: "good",
        ratingChanged: false,
      },
    ]);
  });

  test("a metric one run lacks has no delta and no rating change", () => {
    const noInp = result(90, [2000, "good"], null, [0.05, "good"]);
    const inp = compareVitals(vitalsOf(noInp), vitalsOf(after)).find((c) => c.metric === "inp")!;
    expect(inp).toMatchObject({ before: null, after: 320, delta: null, ratingChanged: false });
  });

  test("as a snapshot: the performance score and each metric a check, poor an error", () => {
    const cmp = compareResults(vitalsSnapshot(before)!, vitalsSnapshot(after)!);
    expect(cmp.scoreDelta).toEqual({ performance: -31 });
    expect(cmp.new.map((c) => [c.id, c.status, c.severity])).toEqual([
      ["cwv.lcp", "fail", "error"],
      ["cwv.inp", "warn", "warning"],
    ]);
    expect(cmp.fixed).toEqual([]);
    const back = compareResults(vitalsSnapshot(after)!, vitalsSnapshot(before)!);
    expect(back.fixed.map((c) => c.id)).toEqual(["cwv.lcp", "cwv.inp"]);
    expect(back.new).toEqual([]);
  });

  test("not a Core Web Vitals result", () => {
    expect(vitalsOf(null)).toBeNull();
    expect(vitalsOf({ score: 3 })).toBeNull();
    expect(vitalsSnapshot("x")).toBeNull();
  });
});
