import { AppError } from "@/lib/errors";

/** wait_for_job calls one key may hold open at once (on this instance); each holds a request for up to 60 s. */
export const WAITS_PER_KEY = 4;

const active = new Map<string, number>();

/**
 * Takes one of the key's wait slots, or refuses with RATE_LIMITED (a tool error the model can retry):
 * without a bound, one key could pin any number of connections and polling loops.
 * Returns the release, to call exactly once when the wait ends.
 */
export function acquireWaitSlot(key: string): () => void {
  const used = active.get(key) ?? 0;
  if (used >= WAITS_PER_KEY) {
    throw new AppError(
      "RATE_LIMITED",
      `At most ${WAITS_PER_KEY} wait_for_job calls may wait at once per API key. Retry when one has returned.`,
      { retryAfterSeconds: 1, concurrentWaits: WAITS_PER_KEY },
    );
  }
  active.set(key, used + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (active.get(key) ?? 1) - 1;
    if (left > 0) active.set(key, left);
    else active.delete(key);
  };
}
