import type { AiAccess } from "@/lib/analysis/ai-access/schema";
import { collectAiAccess } from "../shared/collect-ai-access";
import { readTrackedVisits } from "../shared/tracked-visits";
import type { ToolRunner } from "../types";
import type { AiAccessInput } from "./definition";

export const runner: ToolRunner<AiAccessInput, AiAccess> = {
  async run(input, ctx) {
    const tracking = ctx.db
      ? await readTrackedVisits(ctx.db, ctx.accountId, new URL(input.url).hostname)
      : null;
    return collectAiAccess(ctx, input.url, { tracking });
  },
};
