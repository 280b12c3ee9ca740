import { expect, test } from "vitest";
import { compareResults, snapshotOf } from "./compare-results";

const check = (id: string, status: "pass" | "warn" | "fail") => ({
  id,
  status,
  title: `T ${id}`,
  severity: "warning",
  message: `m ${id}`,
});

test("new, fixed, still open (worsened), gone and the score deltas", () => {
  const before = snapshotOf("audits", {
    score: 70,
    categories: [{ id: "http", score: 50 }],
    checks: [
      check("a", "pass"),
      check("b", "fail"),
      check("c", "warn"),
      check("d", "warn"),
      check("e", "fail"),
    ],
  })!;
  const after = snapshotOf("audits", {
    score: 64,
    categories: [{ id: "http", score: 100 }],
    checks: [
      check("a", "fail"),
      check("b", "pass"),
      check("c", "fail"),
      check("d", "warn"),
      check("f", "warn"),
    ],
  })!;
  const diff = compareResults(before, after);
  expect(diff.new.map((c) => c.id)).toEqual(["a", "f"]);
  expect(diff.new[0]).toMatchObject({ title: "T a", previousStatus: "pass", status: "fail" });
  expect(diff.new[1]).toMatchObject({ previousStatus: null });
  expect(diff.fixed.map((c) => c.id)).toEqual(["b"]);
  expect(diff.open.map((c) => [c.id, c.worsened])).toEqual([
    ["c", true],
    ["d", false],
  ]);
  expect(diff.gone.map((c) => c.id)).toEqual(["e"]);
  expect(diff.scoreDelta).toEqual({ score: -6, http: 50 });
  expect(diff.headlineDelta).toBe(-6);
});

test("the SEO/AEO/GEO audit compares by overall score and counts a check listed twice once", () => {
  const r = (overall: number, status: "pass" | "fail") => ({
    overall,
    seo: {
      score: 60,
      keyChecks: [check("meta.title", status)],
      issues: status === "fail" ? [check("meta.title", status)] : [],
    },
    aeo: { score: 40, checks: [] },
    geo: { score: 30 },
  });
  const diff = compareResults(
    snapshotOf("seo-aeo-geo-audit", r(50, "fail"))!,
    snapshotOf("seo-aeo-geo-audit", r(58, "pass"))!,
  );
  expect(diff.fixed.map((c) => c.id)).toEqual(["meta.title"]);
  expect(diff.headlineDelta).toBe(8);
  expect(diff.scoreDelta).toEqual({ overall: 8, seo: 0, aeo: 0, geo: 0 });
});

test("AI access rows and contradictions compare across runs whatever the visit counts", () => {
  const r = (status: string, visits: number) => ({
    rows: [{ operator: "OpenAI", token: "GPTBot", purpose: "training", status }],
    contradictions: [
      { message: `blocked, yet ${visits} visits claiming ClaudeBot came in 30 days (all unverified)` },
    ],
  });
  const diff = compareResults(
    snapshotOf("ai-access", r("allowed", 1204))!,
    snapshotOf("ai-access", r("blocked", 1310))!,
  );
  expect(diff.new.map((c) => c.id)).toEqual(["ai-access.row.GPTBot.training"]);
  expect(diff.open).toHaveLength(1);
  expect(snapshotOf("keyword-research", {})).toBeNull();
});
