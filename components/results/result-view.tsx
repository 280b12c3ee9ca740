"use client";

import type { AiCitationCheckResult, BrandVisibilityResult } from "@/lib/ai-visibility/schemas";
import type { AiAccess } from "@/lib/analysis/ai-access/schema";
import type { CoreWebVitalsResult } from "@/lib/cwv/result-schema";
import type { KeywordMetricsResult } from "@/lib/keywords/metrics-schema";
import type { KeywordResearchResult } from "@/lib/keywords/schema";
import type { FaqGeneratorResult } from "@/lib/tools/faq-generator/schema";
import type { LlmsTxtResult } from "@/lib/tools/llms-txt/schema";
import type { SeoAeoGeoResult } from "@/lib/tools/seo-aeo-geo-audit/schema";
import type { AuditResult } from "@/lib/tools/shared/audit-schema";
import type { BacklinksOverviewResult, DomainAuthorityResult } from "@/lib/webgraph/backlinks-schema";
import { AiAccessResultView } from "./ai-access-result";
import { AiCitationResultView } from "./ai-citation-result";
import { AuditResultView } from "./audit-result";
import { BacklinksResultView, DomainAuthorityResultView } from "./backlinks-result";
import { BrandVisibilityResultView } from "./brand-visibility-result";
import { CoreWebVitalsResultView } from "./core-web-vitals-result";
import { FaqResultView } from "./faq-result";
import { KeywordMetricsResultView } from "./keyword-metrics-table";
import { KeywordResearchResultView } from "./keyword-research-result";
import { LlmsTxtResultView } from "./llms-txt-result";
import { SeoAeoGeoResultView } from "./seo-aeo-geo-result";

/** The human-readable view of a completed job's result; tools without a view show only the raw JSON toggle. */
export function ResultView({ tool, result }: { tool: string; result: unknown }) {
  if (!result || typeof result !== "object") return null;
  switch (tool) {
    case "audits":
      return <AuditResultView result={result as AuditResult} />;
    case "seo-aeo-geo-audit":
      return <SeoAeoGeoResultView result={result as SeoAeoGeoResult} />;
    case "faq-generator":
      return <FaqResultView result={result as FaqGeneratorResult} />;
    case "core-web-vitals":
      return <CoreWebVitalsResultView result={result as CoreWebVitalsResult} />;
    case "llms-txt":
      return <LlmsTxtResultView result={result as LlmsTxtResult} />;
    case "ai-citation-check":
      return <AiCitationResultView result={result as AiCitationCheckResult} />;
    case "brand-visibility":
      return <BrandVisibilityResultView result={result as BrandVisibilityResult} />;
    case "keyword-research":
      return <KeywordResearchResultView result={result as KeywordResearchResult} />;
    case "keyword-metrics":
      return <KeywordMetricsResultView result={result as KeywordMetricsResult} />;
    case "backlinks-overview":
      return <BacklinksResultView result={result as BacklinksOverviewResult} />;
    case "ai-access":
      return <AiAccessResultView result={result as AiAccess} />;
    case "domain-authority":
      return <DomainAuthorityResultView result={result as DomainAuthorityResult} />;
    default:
      return null;
  }
}
