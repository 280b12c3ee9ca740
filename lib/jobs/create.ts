import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { recordSpend, takeCredits } from "@/lib/credits/credits";
import type { Db } from "@/lib/db/client";
import { idempotencyRecords, type Job, jobs } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { loadServerAvailability } from "@/lib/tools/load-availability";
import { readServerEnv } from "@/lib/tools/server-env";
import { type AnyTool, checkAvailability, type Env } from "@/lib/tools/types";
import { emitWebhookEvent } from "@/lib/webhooks/outbox";
import { jobEvents } from "./events";

export interface CreateJobInput {
  accountId: string;
  tool: AnyTool;
  /** The validated input, as stored and handed to the tool. */
  input: unknown;
  idempotency?: { key: string; requestHash: string };
  /** The server's environment, for the tool's availability check (provider keys). */
  env?: Env;
}

/** Canonical JSON (sorted keys) so that the same body hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${canonical(body)}`)
    .digest("hex");
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** An idempotency key: 1 to 255 visible ASCII characters (the header and the MCP argument alike). */
export const idempotencyKeySchema = z
  .string({ error: "Must be a string." })
  .regex(IDEMPOTENCY_KEY, { error: "1 to 255 visible ASCII characters." });

export function readIdempotencyKey(req: Request): string | undefined {
  const key = req.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (!idempotencyKeySchema.safeParse(key).success) {
    throw new AppError("VALIDATION_ERROR", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
      field: "Idempotency-Key",
      issues: [{ field: "Idempotency-Key", message: "1 to 255 visible ASCII characters." }],
    });
  }
  return key;
}

async function findReplay(db: Db, accountId: string, idem: { key: string; requestHash: string }) {
  const [record] = await db
    .select({ requestHash: idempotencyRecords.requestHash, job: jobs })
    .from(idempotencyRecords)
    .innerJoin(jobs, eq(jobs.id, idempotencyRecords.jobId))
    .where(and(eq(idempotencyRecords.accountId, accountId), eq(idempotencyRecords.key, idem.key)));
  if (!record) return null;
  if (record.requestHash !== idem.requestHash) {
    throw new AppError(
      "VALIDATION_ERROR",
      "This Idempotency-Key was already used with a different request.",
      {
        field: "Idempotency-Key",
        reason: "idempotency_key_reused",
        issues: [{ field: "Idempotency-Key", message: "Already used with a different request." }],
      },
    );
  }
  return record.job;
}

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string })?.code === "23505" ||
  (err as { cause?: { code?: string } })?.cause?.code === "23505";

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
  const env = readServerEnv(input.env ?? process.env);
  let availability = tool.unavailable ? { ok: true as const } : checkAvailability(tool, input.input, env);
  if (availability.ok && !tool.unavailable) {
    // What only the server knows (an imported web graph), from the tool's own availability.ts.
    const serverCheck = await loadServerAvailability(tool.name);
    if (serverCheck) availability = await serverCheck(db, input.input, env);
  }
  if (!availability.ok) {
    throw new AppError("VALIDATION_ERROR", availability.reason, {
      reason: "tool_not_available_here",
      ...availability.details,
    });
  }
  const cost = tool.cost(input.input);
  try {
    const { job, balance } = await db.transaction(async (tx) => {
      const { balance, creditsLowThreshold } = await takeCredits(tx, accountId, cost);
      const [row] = await tx
        .insert(jobs)
        .values({ accountId, tool: tool.name, input: input.input as object, creditsCharged: cost })
        .returning();
      await recordSpend(tx, accountId, cost, balance, row!.id, `${tool.name} job ${row!.id}`);
      if (idempotency) {
        await tx.insert(idempotencyRecords).values({
          accountId,
          key: idempotency.key,
          requestHash: idempotency.requestHash,
          jobId: row!.id,
        });
      }
      // credits.low: this charge took the balance from at least the account's threshold to under it.
      if (cost > 0 && balance < creditsLowThreshold && balance + cost >= creditsLowThreshold) {
        await emitWebhookEvent(tx, accountId, "credits.low", {
          balance,
          threshold: creditsLowThreshold,
          jobId: row!.id,
          tool: tool.name,
        });
      }
      return { job: row!, balance };
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
