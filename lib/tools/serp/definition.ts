import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";
import { SERP_DEPTH, SERP_DEVICES, serpInput, serpResult } from "./schema";

export const serp = defineTool({
  name: "serp",
  title: TOOL_TITLES.serp,
  summary:
    "A live Google results page for a keyword by country, language and device: organic results, the SERP features present and the AI overview with its cited sources, marking your domains.",
  input: serpInput,
  example: { keyword: "cold brew coffee", country: "US", language: "en", device: "desktop", depth: 10 },
  result: serpResult,
  cost: () => 5,
  timeoutMs: 90_000,
  // Reads the account's registered domains (the ones to look for) through the process's database.
  runsIn: "main",
  // lib/tools/serp/availability.ts refuses the job before any charge when DataForSEO is not configured.
  requires: [
    { env: "DATAFORSEO_LOGIN", label: "live search results (DataForSEO SERP API)" },
    { env: "DATAFORSEO_PASSWORD", label: "live search results (DataForSEO SERP API)" },
  ],
  form: [
    { name: "keyword", kind: "text", label: "Keyword", required: true, placeholder: "cold brew coffee" },
    {
      name: "country",
      kind: "text",
      label: "Country",
      hint: "Two-letter code (ISO 3166-1); US when empty.",
      required: false,
      placeholder: "US",
    },
    {
      name: "language",
      kind: "text",
      label: "Language",
      hint: "Two-letter code.",
      required: false,
      placeholder: "en",
    },
    { name: "device", kind: "select", label: "Device", options: SERP_DEVICES, default: "desktop" },
    {
      name: "domains",
      kind: "list",
      label: "Other domains to look for",
      hint: `One per line, up to 5; your registered domains are always looked for. Depth: the first ${SERP_DEPTH.default} results.`,
      required: false,
    },
  ],
});
