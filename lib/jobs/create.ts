import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import type { Job } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { readServerEnv } from "@/lib/tools/server-env";
import type { AnyTool, Env } from "@/lib/tools/types";
import { judgeToolInput } from "@/lib/tools/verdict";
import { chargeAndInsertJob } from "./charge";
import { jobEvents } from "./events";
import { findReplay } from "./idempotency";

export { requestHash } from "./idempotency";

export interface CreateJobInput {
  accountId: string;
  tool: AnyTool;
  /** The validated input, as stored and handed to the tool. */
  input: unknown;
  idempotency?: { key: string; requestHash: string };
  /** The server's environment, for the tool's availability check (provider keys). */
  env?: Env;
}

/**
 * Refuses a tool that cannot run here, then charges the tool's cost and inserts the pending job, its spend ledger row and its idempotency
 * record in one transaction: no charge without a job, no job without its charge.
 * A replay of the same Idempotency-Key and request returns the original job and charges nothing.
 */
export async function createJob(
  db: Db,
  input: CreateJobInput,
): Promise<{ job: Job; replayed: boolean; balance: number | null }> {
  const { accountId, tool, idempotency } = input;
  if (idempotency) {
    const original = await findReplay(db, accountId, idempotency);
    if (original) return { job: original, replayed: true, balance: null };
  }
  // Every way in (REST, MCP, dashboard) passes here, so a tool that cannot run on this server is refused
  // before any charge, whoever asks.
  // A tool not built here is still created and charged, then failed with TOOL_UNAVAILABLE and refunded
  // (clients integrate against its real contract); a built tool missing configuration is refused.
  if (!tool.unavailable) {
    // The one rule REST, MCP, the dashboard and GET /capabilities share (lib/tools/verdict.ts).
    const verdict = await judgeToolInput(db, tool, input.input, readServerEnv(input.env ?? process.env));
    if (!verdict.ok) {
      throw new AppError("VALIDATION_ERROR", verdict.message, { ...verdict.details, reason: verdict.reason });
    }
  }
  const cost = tool.cost(input.input);
  try {
    const { job, balance } = await chargeAndInsertJob(db, {
      accountId,
      tool: tool.name,
      input: input.input,
      cost,
      idempotency,
    });
    jobEvents.emit("created", job.id);
    return { job, replayed: false, balance };
  } catch (err) {
    // A concurrent request with the same key won the race; answer as its replay.
    if (idempotency && isUniqueViolation(err)) {
      const original = await findReplay(db, accountId, idempotency);
      if (original) return { job: original, replayed: true, balance: null };
    }
    throw err;
  }
}
