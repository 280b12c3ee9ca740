import { DEFAULT_RETRY_POLICY, type EngineName, type RetryPolicy } from "./engine-types";

export const ENGINE_ERROR_CODES = [
  "ENGINE_NOT_CONFIGURED",
  "ENGINE_RATE_LIMITED",
  "ENGINE_UNAVAILABLE",
  "ENGINE_REJECTED",
  "ENGINE_TIMEOUT",
  "ENGINE_BAD_RESPONSE",
] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

/**
 * A failed call to an AI engine. `message` is written for the customer and never carries the provider's own
 * text (which can echo key fragments); `detail` keeps that text for operators.
 */
export class EngineError extends Error {
  constructor(
    readonly engine: EngineName,
    readonly code: EngineErrorCode,
    message: string,
    readonly options: { status?: number; retryAfterMs?: number; detail?: string; attempts?: number } = {},
  ) {
    super(message);
    this.name = "EngineError";
  }

  get retryable(): boolean {
    return this.code === "ENGINE_RATE_LIMITED" || this.code === "ENGINE_UNAVAILABLE";
  }
}

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

/** Turns an HTTP status from a provider into the engine error the customer sees. */
export function errorFromStatus(
  engine: EngineName,
  status: number | undefined,
  extra: { retryAfterMs?: number; detail?: string; aborted?: boolean } = {},
): EngineError {
  const options = { status, retryAfterMs: extra.retryAfterMs, detail: extra.detail };
  if (extra.aborted) {
    return new EngineError(
      engine,
      "ENGINE_TIMEOUT",
      `${engine} did not answer within the job's time limit.`,
      options,
    );
  }
  if (status === undefined) {
    return new EngineError(engine, "ENGINE_UNAVAILABLE", `${engine} could not be reached.`, options);
  }
  if (status === 429) {
    return new EngineError(
      engine,
      "ENGINE_RATE_LIMITED",
      `${engine} is rate limiting this service (HTTP 429).`,
      options,
    );
  }
  if (status >= 500) {
    return new EngineError(
      engine,
      "ENGINE_UNAVAILABLE",
      `${engine} failed on its side (HTTP ${status}).`,
      options,
    );
  }
  if (status === 401 || status === 403) {
    return new EngineError(
      engine,
      "ENGINE_REJECTED",
      `${engine} refused this service's credentials (HTTP ${status}); the operator must check its API key.`,
      options,
    );
  }
  return new EngineError(
    engine,
    "ENGINE_REJECTED",
    `${engine} rejected the request (HTTP ${status}).`,
    options,
  );
}

/**
 * Runs one provider call with retries on 429, 5xx and lost connections. Waits honour Retry-After, grow
 * exponentially otherwise, and never outlast the caller's signal or deadline: a wait that would end after the
 * deadline is not started and the last error stands. The SDKs' own retries are off, so every attempt is counted.
 */
export async function callWithRetries<T>(
  run: (attempt: number) => Promise<T>,
  toEngineError: (err: unknown) => EngineError,
  opts: { signal?: AbortSignal; deadline?: number; policy?: Partial<RetryPolicy> } = {},
): Promise<{ value: T; attempts: number }> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...opts.policy };
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await run(attempt), attempts: attempt };
    } catch (err) {
      const error = err instanceof EngineError ? err : toEngineError(err);
      error.options.attempts = attempt;
      if (!error.retryable || attempt >= policy.maxAttempts || opts.signal?.aborted) throw error;
      const backoff = policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
      const wait = Math.min(policy.maxDelayMs, error.options.retryAfterMs ?? backoff);
      if (opts.deadline !== undefined && Date.now() + wait >= opts.deadline) throw error;
      if (error.options.retryAfterMs !== undefined && error.options.retryAfterMs > policy.maxDelayMs)
        throw error;
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
