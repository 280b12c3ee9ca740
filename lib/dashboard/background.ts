// Work an answer must not wait for: mail whose sending time would tell a visitor whether an address has an
// account (a password reset, a sign-up). The task runs after the caller returns; a failure is logged, never
// thrown at a request that has already been answered.
import { redactDbError } from "@/lib/db/errors";

const pending = new Set<Promise<void>>();

/** Starts `task` without waiting for it; `label` names it in the log if it fails. */
export function inBackground(label: string, task: () => Promise<void>): void {
  const run = (async () => {
    // Yield first, so that nothing of the task (not even its first query) runs before the caller answers.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      await task();
    } catch (err) {
      const redacted = redactDbError(err);
      const detail = redacted instanceof Error ? redacted.message : JSON.stringify(redacted);
      console.error(`[${label}] failed: ${detail}`);
    }
  })();
  pending.add(run);
  void run.finally(() => pending.delete(run));
}

/** Waits until every task started so far (and any they started) has ended: for tests and a graceful stop. */
export async function settleBackground(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
