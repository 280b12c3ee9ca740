import { aiAccess } from "./ai-access/definition";
import { aiCitationCheck } from "./ai-citation-check/definition";
import { audits } from "./audits/definition";
import { backlinksOverview } from "./backlinks-overview/definition";
import { brandVisibility } from "./brand-visibility/definition";
import { coreWebVitals } from "./core-web-vitals/definition";
import { domainAuthority } from "./domain-authority/definition";
import { faqGenerator } from "./faq-generator/definition";
import { keywordMetrics } from "./keyword-metrics/definition";
import { keywordResearch } from "./keyword-research/definition";
import { llmsTxt } from "./llms-txt/definition";
import { seoAeoGeoAudit } from "./seo-aeo-geo-audit/definition";
import { serp } from "./serp/definition";
import type { AnyTool, Env } from "./types";

/**
 * The one list of tools, safe to import anywhere (client components included). Routes, the job runner,
 * MCP, the OpenAPI document and Postman collection, the docs page and the dashboard read it. Adding a
 * tool: a folder `lib/tools/<name>/` with `definition.ts` and `run.ts`, and one line here.
 * The order is the order of the documentation and the dashboard.
 */
const DEFINITIONS = [
  audits,
  coreWebVitals,
  keywordResearch,
  brandVisibility,
  faqGenerator,
  llmsTxt,
  aiCitationCheck,
  seoAeoGeoAudit,
  backlinksOverview,
  keywordMetrics,
  domainAuthority,
  serp,
  aiAccess,
] as const;

export type ToolName = (typeof DEFINITIONS)[number]["name"];
export const TOOL_NAMES = DEFINITIONS.map((t) => t.name) as [ToolName, ...ToolName[]];

export const TOOLS = Object.fromEntries(DEFINITIONS.map((t) => [t.name, t])) as Record<ToolName, AnyTool>;

export const isToolName = (name: string): name is ToolName => Object.hasOwn(TOOLS, name);

export function getTool(name: string): AnyTool | undefined {
  return isToolName(name) ? TOOLS[name] : undefined;
}

/** The price as people read it: "50 credits", or the tool's own wording when it depends on the input. */
export function pricingText(tool: AnyTool): string {
  return tool.pricing ?? `${tool.cost(tool.input.parse(tool.example))} credits`;
}

/**
 * What a page or client component may know about a tool's state on this server, as plain data:
 * computed on the server (it reads the environment), handed to client components as props.
 */
export interface ToolStatus {
  name: ToolName;
  /** False while the analysis is not built here; jobs fail with TOOL_UNAVAILABLE and are refunded. */
  built: boolean;
  /** Why it cannot run at all, when not built. */
  reason?: string;
  /** Each configuration requirement with whether it is met (engines for the AI tools). */
  requirements: { env: string; label: string; configured: boolean }[];
}

export function describeToolStatus(tool: AnyTool, env: Env): ToolStatus {
  return {
    name: tool.name as ToolName,
    built: !tool.unavailable,
    ...(tool.unavailable ? { reason: tool.unavailable.reason } : {}),
    requirements: (tool.requires ?? []).map((r) => ({ ...r, configured: Boolean(env[r.env]?.trim()) })),
  };
}
