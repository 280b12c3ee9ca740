import { describe, expect, test } from "vitest";
import { changesBetween } from "./finalize";

const snap = (
  scores: Record<string, number>,
  checks: [string, "pass" | "warn" | "fail", string | null][],
) => ({
  scores,
  checks: checks.map(([id, status, severity]) => ({
    id,
    status,
    title: id,
    ...(severity ? { severity } : {}),
  })),
});

describe("what makes a run a regression", () => {
  const prev = { id: "00000000-0000-4000-8000-000000000001", vitals: null };

  test("a score down 5 points or more", () => {
    const c = changesBetween(
      { ...prev, snapshot: snap({ overall: 80, seo: 70 }, []) },
      { snapshot: snap({ overall: 75, seo: 66 }, []), vitals: null },
    );
    expect(c.scoreDelta).toEqual({ overall: -5, seo: -4 });
    expect(c.regressions).toEqual(["The overall score fell by 5 points."]);
  });

  test("a new error-severity issue; a new warning is not a regression", () => {
    const c = changesBetween(
      {
        ...prev,
        snapshot: snap({ score: 80 }, [
          ["a", "pass", "error"],
          ["b", "pass", "warning"],
        ]),
      },
      {
        snapshot: snap({ score: 81 }, [
          ["a", "fail", "error"],
          ["b", "warn", "warning"],
        ]),
        vitals: null,
      },
    );
    expect(c.new.map((i) => i.id)).toEqual(["a", "b"]);
    expect(c.regressions).toEqual(["New issue: a."]);
    const warnOnly = changesBetween(
      { ...prev, snapshot: snap({ score: 80 }, [["b", "pass", "warning"]]) },
      { snapshot: snap({ score: 79 }, [["b", "warn", "warning"]]), vitals: null },
    );
    expect(warnOnly.regressions).toEqual([]);
  });

  test("an improvement, or an error still open, is no regression", () => {
    const c = changesBetween(
      {
        ...prev,
        snapshot: snap({ score: 60 }, [
          ["a", "fail", "error"],
          ["c", "fail", "error"],
        ]),
      },
      {
        snapshot: snap({ score: 90 }, [
          ["a", "pass", "error"],
          ["c", "fail", "error"],
        ]),
        vitals: null,
      },
    );
    expect(c.fixed.map((i) => i.id)).toEqual(["a"]);
    expect(c.open.map((i) => i.id)).toEqual(["c"]);
    expect(c.regressions).toEqual([]);
  });
});
