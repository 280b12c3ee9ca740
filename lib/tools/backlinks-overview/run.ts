import { getDb } from "@/lib/db/client";
import { type BacklinksOverviewResult, runBacklinksOverview } from "@/lib/webgraph";
import { toKnownToolError } from "../map-tool-error";
import type { ToolRunner } from "../types";

export const runner: ToolRunner<{ target: string; includeHistory: boolean }, BacklinksOverviewResult> = {
  async run(input, ctx) {
    const db = await getDb();
    return runBacklinksOverview(input, { db, signal: ctx.signal, env: ctx.env }).catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      throw toKnownToolError(err);
    });
  },
};
