import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { creditLedger, jobs } from "@/lib/db/schema";
import { toJobView } from "./view";

/**
 * A job as operators see it (the admin CLI's show-job): the customer's view plus the account, attempts, the job's
 * ledger rows and the AI providers' token usage, which no customer-facing answer carries. Null when unknown.
 */
export async function describeJobForOperators(db: DbOrTx, jobId: string) {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId));
  if (!job) return null;
  const ledger = await db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.jobId, jobId))
    .orderBy(creditLedger.id);
  return {
    ...toJobView(job),
    accountId: job.accountId,
    attempts: job.attempts,
    providerUsage: job.providerUsage ?? null,
    ledger: ledger.map((l) => ({
      type: l.type,
      amount: l.amount,
      description: l.description,
      createdAt: l.createdAt.toISOString(),
    })),
  };
}
