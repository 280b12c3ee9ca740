import type { AiAccess } from "@/lib/analysis/ai-access/schema";
import type { ToolRunner } from "../types";
import { collectAiAccess } from "./collect";
import type { AiAccessInput } from "./definition";
import { readTrackedVisits } from "./tracking";

export const runner: ToolRunner<AiAccessInput, AiAccess> = {
  async run(input, ctx) {
    const tracking = ctx.db
      ? await readTrackedVisits(ctx.db, ctx.accountId, new URL(input.url).hostname)
      : null;
    return collectAiAccess(ctx, input.url, { tracking });
  },
};
