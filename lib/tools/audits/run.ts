import type { ToolRunner } from "../types";
import { runAudit } from "./run-audit";
import type { AuditInput, AuditResult } from "./schema";

export const runner: ToolRunner<AuditInput, AuditResult> = {
  async run(input, ctx) {
    return (await runAudit(input.url, ctx)).result;
  },
};
