import { getDb } from "@/lib/db/client";
import { type DomainAuthorityInput, type DomainAuthorityResult, runDomainAuthority } from "@/lib/webgraph";
import { toKnownToolError } from "../map-tool-error";
import type { ToolRunner } from "../types";

export const runner: ToolRunner<DomainAuthorityInput, DomainAuthorityResult> = {
  async run(input, ctx) {
    // A "main" tool gets the runner's database; the process's own is the fallback outside the runner.
    const db = ctx.db ?? (await getDb());
    return runDomainAuthority(input, { db, signal: ctx.signal, env: ctx.env }).catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      throw toKnownToolError(err);
    });
  },
};
