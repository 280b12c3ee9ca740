import { CwvError } from "./errors";

/**
 * At most `limit` Lighthouse runs at once in this process: each holds a whole Chromium, and two
 * measuring side by side on two cores would also skew each other's timings.
 */
let active = 0;
const waiting: { limit: number; wake: () => void }[] = [];

export function readRunLimit(env: Record<string, string | undefined>): number {
  const value = Number(env.CWV_MAX_CONCURRENT_RUNS);
  return Number.isInteger(value) && value >= 1 ? value : 1;
}

/** Waits for a free slot (or the signal) and returns the function that frees it. */
export function acquireRunSlot(limit: number, signal: AbortSignal): Promise<() => void> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    active -= 1;
    const index = waiting.findIndex((w) => active < w.limit);
    if (index >= 0) waiting.splice(index, 1)[0]?.wake();
  };
  if (active < limit) {
    active += 1;
    return Promise.resolve(release);
  }
  return new Promise((resolve, reject) => {
    const entry = {
      limit,
      wake: () => {
        signal.removeEventListener("abort", onAbort);
        active += 1;
        resolve(release);
      },
    };
    const onAbort = () => {
      const index = waiting.indexOf(entry);
      if (index >= 0) waiting.splice(index, 1);
      reject(abortError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    waiting.push(entry);
  });
}

/** Runs holding a slot right now, for tests and the benchmark. */
export function countActiveRuns(): number {
  return active;
}

function abortError(signal: AbortSignal): CwvError {
  return signal.reason instanceof CwvError
    ? signal.reason
    : new CwvError("ABORTED", "The measurement was stopped before a browser became free.");
}
