import type { ToolDefinition } from "../types";
import { runAudit } from "./run-audit";
import { type AuditInput, type AuditResult, auditInput, auditResult } from "./schema";

export const audits: ToolDefinition<AuditInput, AuditResult> = {
  name: "audits",
  summary:
    "URL audit: HTTP and security headers, robots.txt, sitemaps, llms.txt, structured data, headings, content.",
  input: auditInput,
  result: auditResult,
  cost: () => 50,
  timeoutMs: 90_000,
  async run(input, ctx) {
    return (await runAudit(input.url, ctx)).result;
  },
};
