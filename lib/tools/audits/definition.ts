import { auditInput, auditResult } from "../shared/audit-schema";
import { TOOL_TITLES } from "../titles";
import { defineTool } from "../types";

export const audits = defineTool({
  name: "audits",
  title: TOOL_TITLES.audits,
  summary:
    "URL audit: HTTP and security headers, robots.txt, sitemaps, llms.txt, structured data, headings, content.",
  input: auditInput,
  example: { url: "https://example.com/" },
  result: auditResult,
  cost: () => 50,
  timeoutMs: 90_000,
  creationShape: "with-charge",
  form: [
    { name: "url", kind: "url", label: "Page URL", required: true, placeholder: "https://example.com/" },
  ],
});
