import { aiCitationCheck } from "./ai-citation-check";
import { audits } from "./audits";
import { backlinksOverview } from "./backlinks-overview";
import { brandVisibility } from "./brand-visibility";
import { coreWebVitals } from "./core-web-vitals";
import { faqGenerator } from "./faq-generator";
import { keywordResearch } from "./keyword-research";
import { llmsTxt } from "./llms-txt";
import { seoAeoGeoAudit } from "./seo-aeo-geo-audit";
import type { AnyTool, ToolName } from "./types";

/**
 * The one list of tools: routes, the runner, the MCP endpoint and the OpenAPI document read it.
 * Every tool endpoint POST /api/v1/<name> creates a job of the tool with that name.
 */
export const TOOLS: Record<ToolName, AnyTool> = {
  audits,
  "core-web-vitals": coreWebVitals,
  "keyword-research": keywordResearch,
  "brand-visibility": brandVisibility,
  "faq-generator": faqGenerator,
  "llms-txt": llmsTxt,
  "ai-citation-check": aiCitationCheck,
  "seo-aeo-geo-audit": seoAeoGeoAudit,
  "backlinks-overview": backlinksOverview,
};

// Tests register tools of their own (a slow tool, a failing tool); never used in production code paths.
const extra = new Map<string, AnyTool>();

export function registerTestTool(def: AnyTool): void {
  extra.set(def.name, def);
}

export function getTool(name: string): AnyTool | undefined {
  return extra.get(name) ?? (Object.hasOwn(TOOLS, name) ? TOOLS[name as ToolName] : undefined);
}
