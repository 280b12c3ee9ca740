import { describe, expect, test } from "vitest";
import { compareWeeks, describeChange } from "./week-compare";

const days = (before: number[], last: number[]) => [...Array(16).fill(0), ...before, ...last];

describe("last 7 days against the 7 before", () => {
  test("sums each week and the change in percent", () => {
    const c = compareWeeks(days([1, 1, 1, 1, 1, 1, 4], [2, 2, 2, 2, 2, 2, 8]))!;
    expect(c).toEqual({ current: 20, previous: 10, changePct: 100 });
    expect(describeChange(c)).toBe("+100% on the 7 days before");
    expect(describeChange(compareWeeks(days([2, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]))!)).toBe(
      "−50% on the 7 days before",
    );
  });

  test("no base: no percentage", () => {
    const c = compareWeeks(days([0, 0, 0, 0, 0, 0, 0], [0, 3, 0, 0, 0, 0, 0]))!;
    expect(c).toEqual({ current: 3, previous: 0, changePct: null });
    expect(describeChange(c)).toBe("none the 7 days before");
  });

  test("a source without any value has no comparison; days without a value count as nothing", () => {
    expect(compareWeeks(Array(30).fill(null))).toBeNull();
    expect(compareWeeks([...Array(13).fill(null), 5])).toEqual({ current: 5, previous: 0, changePct: null });
  });
});
