import { and, eq, gt } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";

/** The account's job, or null: another account's job is as absent as an unknown one. Purged jobs are gone. */
export async function getJob(db: DbOrTx, accountId: string, jobId: string) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.accountId, accountId), gt(jobs.expiresAt, new Date())));
  return row ?? null;
}
