import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { idempotencyRecords, jobs } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";

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

export async function findReplay(db: Db, accountId: string, idem: { key: string; requestHash: string }) {
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
