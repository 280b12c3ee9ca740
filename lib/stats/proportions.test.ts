import { describe, expect, test } from "vitest";
import { compareProportions, normalCdf, seededRandom, wilson } from "./proportions";

function draw(random: () => number, rate: number, n: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (random() < rate) k++;
  return k;
}

describe("wilson", () => {
  test("Newcombe's published values (method 4, score with continuity correction)", () => {
    expect(wilson(81, 263)).toEqual({ value: 0.308, n: 263, low: 0.2535, high: 0.3682 });
    expect(wilson(15, 148)).toMatchObject({ low: 0.0598, high: 0.1644 });
    expect(wilson(0, 10)).toEqual({ value: 0, n: 10, low: 0, high: 0.3445 });
    expect(wilson(20, 20)).toMatchObject({ value: 1, high: 1 });
    expect(wilson(0, 0)).toEqual({ value: null, n: 0, low: null, high: null });
  });

  test("refuses what is no proportion", () => {
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
  });

  test("the interval contains the true rate of a seeded generator in at least 93% of 200 runs", () => {
    const random = seededRandom(35);
    for (const [rate, n] of [
      // A monitor's run of 5 prompts × 4 engines × 3 samples is 60 answers.
      [0.3, 60],
      [0.5, 36],
      [0.2, 120],
    ] as const) {
      let covered = 0;
      for (let run = 0; run < 200; run++) {
        const ci = wilson(draw(random, rate, n), n);
        if (ci.low! <= rate && rate <= ci.high!) covered++;
      }
      expect(covered / 200).toBeGreaterThanOrEqual(0.93);
    }
  });
});

describe("compareProportions", () => {
  test("two periods drawn from the same rate: no significant change in at least 93% of 200", () => {
    const random = seededRandom(7);
    for (const [rate, n] of [
      [0.4, 60],
      [0.2, 90],
    ] as const) {
      let quiet = 0;
      for (let run = 0; run < 200; run++) {
        const change = compareProportions(draw(random, rate, n), n, draw(random, rate, n), n);
        if (!change.significant) quiet++;
      }
      expect(quiet / 200).toBeGreaterThanOrEqual(0.93);
    }
  });

  test("a real change of 30 points at n = 60 is detected", () => {
    const random = seededRandom(11);
    let detected = 0;
    for (let run = 0; run < 200; run++) {
      const change = compareProportions(draw(random, 0.3, 60), 60, draw(random, 0.6, 60), 60);
      if (change.significant && change.delta! > 0) detected++;
    }
    // The power of this test at 0.3 → 0.6 with 60 per period is about 0.93.
    expect(detected / 200).toBeGreaterThanOrEqual(0.85);
    // And the expected draw itself: 18/60 → 36/60.
    expect(compareProportions(18, 60, 36, 60)).toMatchObject({ delta: 0.3, significant: true });
  });

  test("edge cases", () => {
    expect(compareProportions(0, 0, 3, 10)).toEqual({
      delta: null,
      significant: false,
      z: null,
      pValue: null,
    });
    expect(compareProportions(10, 10, 10, 10)).toMatchObject({ delta: 0, significant: false });
    expect(compareProportions(5, 10, 6, 10).significant).toBe(false);
  });

  test("normalCdf", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 5);
  });
});
