import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";
import { seoAeoGeoInput, seoAeoGeoResult } from "./schema";

export const seoAeoGeoAudit = defineTool({
  name: "seo-aeo-geo-audit",
  title: TOOL_TITLES["seo-aeo-geo-audit"],
  summary: "Combined SEO, answer-engine (AEO) and generative-engine (GEO) audit of a URL.",
  input: seoAeoGeoInput,
  example: { url: "https://example.com/" },
  result: seoAeoGeoResult,
  cost: () => 75,
  timeoutMs: 90_000,
  form: [
    { name: "url", kind: "url", label: "Page URL", required: true, placeholder: "https://example.com/" },
  ],
});
