import { keywordResearchInput, keywordResearchResult, MAX_SEED_KEYWORDS } from "@/lib/keywords/schema";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

const DATAFORSEO = ["DATAFORSEO_LOGIN", "DATAFORSEO_PASSWORD"] as const;

export const keywordResearch = defineTool({
  name: "keyword-research",
  title: TOOL_TITLES["keyword-research"],
  summary: `The topics, keyphrases and questions of a site (url), or keyword ideas with search figures for up to ${MAX_SEED_KEYWORDS} seed keywords.`,
  input: keywordResearchInput,
  example: { keywords: ["ai search optimization", "llms.txt"] },
  result: keywordResearchResult,
  cost: () => 50,
  // Up to 21 pages crawled in at most a minute, then the provider's figures.
  timeoutMs: 120_000,
  // Seed keywords need the provider: lib/tools/keyword-research/availability.ts refuses them before any charge.
  requires: DATAFORSEO.map((env) => ({ env, label: "keyword figures (DataForSEO)" })),
  form: [
    { name: "url", kind: "url", label: "Site URL", required: false, placeholder: "https://example.com/" },
    {
      name: "keywords",
      kind: "list",
      label: "Seed keywords",
      hint: `One per line, up to ${MAX_SEED_KEYWORDS}. Give either a URL or keywords, not both.`,
      required: false,
    },
  ],
});
