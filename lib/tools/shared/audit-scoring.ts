/**
 * The audit's overall score. Documented for customers in SCORING.md beside this file; keep both in step.
 *
 * - Each category scores 0–100. Check-based categories: every check weighs the same, pass = 1, warn = 0.5,
 *   fail = 0. Security uses the Observatory-style header score, capped at 100.
 * - The overall score is the weighted mean of the categories below (weights sum to 100).
 * - Blockers: a page that asks not to be indexed (noindex) or that robots.txt closes to Googlebot/Bingbot
 *   cannot rank however good it is otherwise, so the overall score is capped at BLOCKER_CAP.
 */
import { scoreChecks } from "@/lib/analysis/check";
import type { Check } from "@/lib/analysis/types";
import type { AuditResult } from "./audit-schema";

const CATEGORY_WEIGHTS = {
  http: 10,
  crawl: 15,
  security: 10,
  meta: 20,
  headings: 10,
  "structured-data": 15,
  content: 15,
  "ai-access": 5,
} as const;

const BLOCKER_CAP = 40;
const BLOCKERS: Record<string, string> = {
  "meta.robots": "noindex",
  "crawl.search-bots": "search crawlers blocked",
};

type AuditCategory = keyof typeof CATEGORY_WEIGHTS;

function countStatuses(checks: readonly Check[]) {
  return {
    pass: checks.filter((c) => c.status === "pass").length,
    warn: checks.filter((c) => c.status === "warn").length,
    fail: checks.filter((c) => c.status === "fail").length,
  };
}

export function scoreAudit(
  checks: readonly Check[],
  securityScore: number,
): Pick<AuditResult, "score" | "scoreCappedBy" | "categories" | "summary"> {
  const categories = (Object.keys(CATEGORY_WEIGHTS) as AuditCategory[]).map((id) => {
    const inCategory = checks.filter((c) => c.category === id);
    const score = id === "security" ? Math.min(100, securityScore) : scoreChecks(inCategory);
    return { id, weight: CATEGORY_WEIGHTS[id], score, counts: countStatuses(inCategory) };
  });
  const totalWeight = categories.reduce((sum, c) => sum + c.weight, 0);
  const weighted = Math.round(categories.reduce((sum, c) => sum + c.score * c.weight, 0) / totalWeight);
  const scoreCappedBy = checks
    .filter((c) => c.status === "fail" && BLOCKERS[c.id])
    .map((c) => `${c.id}: ${BLOCKERS[c.id]}`);
  const score = scoreCappedBy.length ? Math.min(weighted, BLOCKER_CAP) : weighted;
  return { score, scoreCappedBy, categories, summary: countStatuses(checks) };
}
