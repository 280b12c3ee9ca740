import { analyzeAeoPage } from "@/lib/analysis/aeo";
import { scoreChecks } from "@/lib/analysis/check";
import { analyzeGeo } from "@/lib/analysis/geo";
import { runAudit } from "../shared/run-audit";
import type { ToolRunner } from "../types";
import type { SeoAeoGeoInput, SeoAeoGeoResult } from "./schema";

export const OVERALL_WEIGHTS = { seo: 0.4, aeo: 0.3, geo: 0.3 } as const;

/** The audit checks a search result depends on most; shown whatever their status. */
export const KEY_SEO_CHECKS = [
  "http.status",
  "http.https",
  "crawl.robots-txt",
  "crawl.search-bots",
  "crawl.sitemap",
  "meta.title",
  "meta.description",
  "meta.canonical",
  "meta.robots",
  "meta.viewport",
  "headings.h1",
  "structured-data.required",
  "content.word-count",
] as const;

export const runner: ToolRunner<SeoAeoGeoInput, SeoAeoGeoResult> = {
  async run(input, ctx) {
    const run = await runAudit(input.url, ctx);
    const { result: audit } = run;
    const aeoPage = analyzeAeoPage(run.page, run.analysis.structuredData);
    const aeoChecks = [...aeoPage.checks, ...run.aiAccessChecks];
    const aeoScore = scoreChecks(aeoChecks);
    const geo = analyzeGeo(run.page);
    const overall = Math.round(
      OVERALL_WEIGHTS.seo * audit.score + OVERALL_WEIGHTS.aeo * aeoScore + OVERALL_WEIGHTS.geo * geo.score,
    );
    const byId = new Map(audit.checks.map((c) => [c.id, c]));
    return {
      input: { url: input.url },
      url: audit.url,
      finalUrl: audit.finalUrl,
      fetchedAt: audit.fetchedAt,
      overall,
      weights: { ...OVERALL_WEIGHTS },
      seo: {
        score: audit.score,
        scoreCappedBy: audit.scoreCappedBy,
        securityGrade: audit.security.grade,
        summary: audit.summary,
        keyChecks: KEY_SEO_CHECKS.flatMap((id) => byId.get(id) ?? []),
        issues: audit.checks.filter((c) => c.status !== "pass"),
      },
      aeo: { score: aeoScore, checks: aeoChecks, questions: aeoPage.questions },
      geo,
      aiAccess: audit.aiAccess,
    };
  },
};
