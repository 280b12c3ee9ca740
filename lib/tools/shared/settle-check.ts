import { eq } from "drizzle-orm";
import {
  type EngineResult,
  type EngineUsageRecord,
  engineUsage,
  failedEngines,
  recordObservations,
} from "@/lib/ai-visibility";
import { refundJobShare } from "@/lib/credits/credits";
import type { Tx } from "@/lib/db/client";
import { type Job, jobs } from "@/lib/db/schema";
import { COST_PER_ENGINE } from "./engine-check";

/** The epoch ms by which the engines must have answered: the job's limit less room to analyse the answers. */
export function engineDeadline(timeoutMs: number, now = Date.now()): number {
  return now + timeoutMs - Math.min(15_000, timeoutMs / 5);
}

/**
 * Everything a completed AI check settles in its completion transaction: the failed engines' credits back as
 * one refund row carrying the job id, one visibility observation per engine that answered, and the providers'
 * token usage on the job (operators only). Runs once: the job's move to `completed` is the transaction's guard,
 * and the ledger allows one refund row per job.
 */
export async function settleCheck(
  tx: Tx,
  event: {
    job: Job;
    input: { domain: string; prompt: string };
    result: { results: readonly EngineResult[] } | EngineResult;
    usage: readonly EngineUsageRecord[];
  },
): Promise<void> {
  const { job } = event;
  const failed = failedEngines(event.result);
  const entries = "results" in event.result ? event.result.results : [event.result];
  const refund = Math.min(job.creditsCharged, failed.length * COST_PER_ENGINE);
  if (refund > 0) {
    const why = failed
      .map((engine) => `${engine} (${entries.find((e) => e.engine === engine)?.error?.code ?? "failed"})`)
      .join(", ");
    const refunded = await refundJobShare(
      tx,
      job,
      refund,
      `Refund: ${job.tool} job ${job.id}, ${why} failed`,
    );
    if (!refunded) throw new Error(`job ${job.id} already has a refund`);
  }
  await recordObservations(tx, {
    accountId: job.accountId,
    jobId: job.id,
    domain: event.input.domain,
    prompt: event.input.prompt,
    result: event.result,
  });
  await tx
    .update(jobs)
    .set({ creditsRefundedAmount: refund, providerUsage: event.usage.map((u) => engineUsage.parse(u)) })
    .where(eq(jobs.id, job.id));
}

/**
 * The usage records an engine run carried beside its result: each answer's, then its sentiment judgement's
 * when a model judged (none when the output holds none).
 */
export function readUsage(output: unknown): EngineUsageRecord[] {
  const entries =
    output && typeof output === "object" && "results" in output && Array.isArray(output.results)
      ? output.results
      : [output];
  return entries.flatMap((e: unknown) => {
    const entry = e as { usage?: unknown; sentimentUsage?: unknown } | null;
    return [entry?.usage, entry?.sentimentUsage].flatMap((u) => {
      const parsed = engineUsage.safeParse(u);
      return parsed.success ? [parsed.data] : [];
    });
  });
}
