import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./engine-types";
import type { ProviderError } from "./provider-error";

/** Reads Retry-After (seconds or an HTTP date) and the retry-after-ms some providers send. */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get("retry-after");
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Runs one provider call with retries while its error is `retryable` (rate limits, the provider's own
 * failures, lost connections). Waits honour Retry-After, grow exponentially otherwise, and never outlast the
 * caller's signal or deadline: a wait that would end after the deadline is not started and the last error
 * stands, as does one whose Retry-After is longer than the policy's longest wait. Every attempt is counted
 * (`attempts` on the value, `recordAttempts` on the error).
 */
export async function withRetries<T, E extends ProviderError>(
  run: (attempt: number) => Promise<T>,
  toError: (err: unknown) => E,
  opts: {
    signal?: AbortSignal;
    deadline?: number;
    policy?: Partial<RetryPolicy>;
    /** Narrows which retryable errors are retried (default: every retryable one). */
    retryOn?: (error: E) => boolean;
  } = {},
): Promise<{ value: T; attempts: number }> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...opts.policy };
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await run(attempt), attempts: attempt };
    } catch (err) {
      const error = toError(err);
      error.recordAttempts(attempt);
      const retry = error.retryable && (opts.retryOn?.(error) ?? true);
      if (!retry || attempt >= policy.maxAttempts || opts.signal?.aborted) throw error;
      // Exponential backoff with jitter (half to full), so callers refused at once do not retry in step.
      const backoff = policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
      const wait = Math.min(policy.maxDelayMs, error.retryAfterMs ?? backoff);
      if (opts.deadline !== undefined && Date.now() + wait >= opts.deadline) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxDelayMs) throw error;
      await sleep(wait, opts.signal);
      if (opts.signal?.aborted) throw error;
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
