import type { AuditInput, AuditResult } from "../shared/audit-schema";
import { runAudit } from "../shared/run-audit";
import type { ToolRunner } from "../types";

export const runner: ToolRunner<AuditInput, AuditResult> = {
  async run(input, ctx) {
    return (await runAudit(input.url, ctx)).result;
  },
};
