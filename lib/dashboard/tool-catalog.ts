// What the dashboard's launchers need to know about each tool, safe to import in client components:
// no database, no Node modules. Costs mirror the tools' own cost() (a test keeps them equal).
import type { z } from "zod";
import { coreWebVitalsInput } from "@/lib/tools/core-web-vitals";
import { faqGeneratorInput } from "@/lib/tools/faq-generator/schema";
import { keywordResearchInput } from "@/lib/tools/keyword-research";
import { llmsTxtInput } from "@/lib/tools/llms-txt/schema";
import type { ToolName } from "@/lib/tools/types";

export const ENGINE_NAMES = ["ChatGPT", "Perplexity", "Claude", "Gemini"] as const;

export type FieldSpec =
  | {
      name: string;
      kind: "url" | "text";
      label: string;
      hint?: string;
      required: boolean;
      placeholder?: string;
    }
  | { name: string; kind: "textarea"; label: string; hint?: string; required: boolean; placeholder?: string }
  | { name: string; kind: "list"; label: string; hint: string; required: boolean; placeholder?: string }
  | { name: string; kind: "select"; label: string; options: readonly string[]; default: string }
  | { name: string; kind: "checkboxes"; label: string; options: readonly string[] }
  | { name: string; kind: "checkbox"; label: string };

export interface ToolInfo {
  name: ToolName;
  title: string;
  description: string;
  fields: FieldSpec[];
  /** Credits for a given (raw) input, the same as the tool's cost(). */
  cost(input: Record<string, unknown>): number;
  /** Set for tools whose analysis this server cannot run yet: their jobs fail and are refunded. */
  unavailable?: true;
  /** The tool's own input schema when it can run in the browser; the server always validates again. */
  clientSchema?: z.ZodType;
}

const url = (label = "Page URL"): FieldSpec => ({
  name: "url",
  kind: "url",
  label,
  required: true,
  placeholder: "https://example.com/",
});

// audits and seo-aeo-geo-audit take { url } exactly as faq-generator does; their schema modules pull in
// server-side analysis code, so the browser checks with the identical schema.
const urlOnly = faqGeneratorInput;

export const TOOL_CATALOG: ToolInfo[] = [
  {
    name: "audits",
    title: "URL audit",
    description:
      "HTTP and security headers, robots.txt, sitemaps, llms.txt, structured data, headings and content quality, as a checklist.",
    fields: [url()],
    cost: () => 50,
    clientSchema: urlOnly,
  },
  {
    name: "seo-aeo-geo-audit",
    title: "SEO / AEO / GEO audit",
    description:
      "One score for search engines, answer engines and generative engines, with what to fix first.",
    fields: [url()],
    cost: () => 75,
    clientSchema: urlOnly,
  },
  {
    name: "faq-generator",
    title: "FAQ generator",
    description:
      "8 to 10 question and answer pairs grounded in the page, with a ready-to-embed FAQPage JSON-LD.",
    fields: [url()],
    cost: () => 20,
    clientSchema: faqGeneratorInput,
  },
  {
    name: "llms-txt",
    title: "llms.txt generator",
    description: "An llms.txt file for your site, built from its own titles and descriptions.",
    fields: [url("Homepage or key page URL")],
    cost: () => 20,
    clientSchema: llmsTxtInput,
  },
  {
    name: "core-web-vitals",
    title: "Core Web Vitals",
    description: "LCP, INP, CLS and an overall performance score.",
    fields: [
      url(),
      {
        name: "strategy",
        kind: "select",
        label: "Strategy",
        options: ["mobile", "desktop"],
        default: "mobile",
      },
    ],
    cost: () => 25,
    unavailable: true,
    clientSchema: coreWebVitalsInput,
  },
  {
    name: "keyword-research",
    title: "Keyword research",
    description: "Keyword ideas from a site's topics or from up to 10 seed keywords.",
    fields: [
      { name: "url", kind: "url", label: "Site URL", required: false, placeholder: "https://example.com/" },
      {
        name: "keywords",
        kind: "list",
        label: "Seed keywords",
        hint: "One per line, up to 10. Give either a URL or keywords, not both.",
        required: false,
      },
    ],
    cost: () => 50,
    unavailable: true,
    clientSchema: keywordResearchInput,
  },
  {
    name: "brand-visibility",
    title: "Brand visibility",
    description:
      "How one AI engine answers a prompt about your brand: mention position, sentiment, citations.",
    fields: [
      { name: "prompt", kind: "textarea", label: "Prompt", required: true, placeholder: "Best tools for …" },
      { name: "domain", kind: "text", label: "Your domain", required: true, placeholder: "example.com" },
      { name: "engine", kind: "select", label: "Engine", options: ENGINE_NAMES, default: "ChatGPT" },
      {
        name: "competitors",
        kind: "list",
        label: "Competitors",
        hint: "Up to 5 domains, one per line.",
        required: false,
      },
    ],
    cost: () => 100,
    unavailable: true,
  },
  {
    name: "ai-citation-check",
    title: "AI citation check",
    description:
      "Whether ChatGPT, Perplexity, Claude and Gemini cite or mention your domain (100 credits per engine).",
    fields: [
      { name: "prompt", kind: "textarea", label: "Prompt", required: true, placeholder: "Best tools for …" },
      { name: "domain", kind: "text", label: "Your domain", required: true, placeholder: "example.com" },
      { name: "engines", kind: "checkboxes", label: "Engines", options: ENGINE_NAMES },
      {
        name: "competitors",
        kind: "list",
        label: "Competitors",
        hint: "Up to 5 domains, one per line.",
        required: false,
      },
    ],
    cost: (input) =>
      100 * (Array.isArray(input.engines) && input.engines.length > 0 ? input.engines.length : 4),
    unavailable: true,
  },
  {
    name: "backlinks-overview",
    title: "Backlinks overview",
    description: "The backlink profile of a domain, optionally with its history.",
    fields: [
      { name: "target", kind: "text", label: "Target domain", required: true, placeholder: "example.com" },
      { name: "includeHistory", kind: "checkbox", label: "Include history" },
    ],
    cost: () => 15,
    unavailable: true,
  },
];

export function findToolInfo(name: string): ToolInfo | undefined {
  return TOOL_CATALOG.find((t) => t.name === name);
}

/** The request body a launcher form describes: empty optional fields are left out, as an API client would. */
export function formToInput(tool: ToolInfo, values: Record<string, string | string[] | boolean>) {
  const body: Record<string, unknown> = {};
  for (const field of tool.fields) {
    const value = values[field.name];
    if (field.kind === "checkbox") {
      if (value === true) body[field.name] = true;
    } else if (field.kind === "checkboxes") {
      if (Array.isArray(value) && value.length > 0) body[field.name] = value;
    } else if (field.kind === "list") {
      const items = String(value ?? "")
        .split(/[\n,]/)
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length > 0) body[field.name] = items;
    } else if (typeof value === "string" && value.trim() !== "") {
      body[field.name] = field.kind === "select" ? value : value.trim();
    }
  }
  return body;
}
