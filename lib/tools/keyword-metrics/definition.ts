import { costKeywordMetrics, keywordMetricsInput, keywordMetricsResult } from "@/lib/keywords/metrics-schema";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

export const keywordMetrics = defineTool({
  name: "keyword-metrics",
  title: TOOL_TITLES["keyword-metrics"],
  summary:
    "Monthly search volume, difficulty, cost per click, search intent and the 12-month trend of up to 100 keywords.",
  input: keywordMetricsInput,
  example: { keywords: ["cold brew", "cold brew coffee"], location: 2840, language: "en" },
  result: keywordMetricsResult,
  cost: costKeywordMetrics,
  pricing: "1 credit per distinct keyword (case-insensitive): 100 keywords cost 100 credits",
  timeoutMs: 60_000,
  // Needs the provider: lib/tools/keyword-metrics/availability.ts refuses the job before any charge otherwise.
  requires: [
    { env: "DATAFORSEO_LOGIN", label: "keyword figures (DataForSEO)" },
    { env: "DATAFORSEO_PASSWORD", label: "keyword figures (DataForSEO)" },
  ],
  form: [
    { name: "keywords", kind: "list", label: "Keywords", hint: "One per line, up to 100.", required: true },
    {
      name: "location",
      kind: "text",
      label: "Location",
      hint: "The market's full name, e.g. United Kingdom; United States when empty.",
      required: false,
      placeholder: "United States",
    },
    {
      name: "language",
      kind: "text",
      label: "Language",
      hint: "Two-letter code.",
      required: false,
      placeholder: "en",
    },
  ],
});
