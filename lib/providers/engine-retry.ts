import type { EngineName, RetryPolicy } from "./engine-types";
import { ProviderError, type ProviderName } from "./provider-error";
import { withRetries } from "./retry";

const ENGINE_ERROR_CODES = [
  "ENGINE_NOT_CONFIGURED",
  "ENGINE_RATE_LIMITED",
  "ENGINE_UNAVAILABLE",
  "ENGINE_REJECTED",
  "ENGINE_TIMEOUT",
  "ENGINE_BAD_RESPONSE",
] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

const ENGINE_PROVIDERS: Record<EngineName, ProviderName> = {
  ChatGPT: "openai",
  Perplexity: "perplexity",
  Claude: "anthropic",
  Gemini: "gemini",
};

const RETRYABLE_ENGINE_CODES: readonly EngineErrorCode[] = ["ENGINE_RATE_LIMITED", "ENGINE_UNAVAILABLE"];

/**
 * A failed call to an AI engine. `message` is written for the customer and never carries the provider's own
 * text (which can echo key fragments); `detail` keeps that text for operators. Rate limits and the
 * provider's own failures are retryable.
 */
export class EngineError extends ProviderError<EngineErrorCode> {
  constructor(
    readonly engine: EngineName,
    code: EngineErrorCode,
    message: string,
    readonly options: { status?: number; retryAfterMs?: number; detail?: string; attempts?: number } = {},
  ) {
    super(ENGINE_PROVIDERS[engine], code, message, {
      retryable: RETRYABLE_ENGINE_CODES.includes(code),
      status: options.status,
      retryAfterMs: options.retryAfterMs,
    });
    this.name = "EngineError";
    if (options.attempts !== undefined) this.attempts = options.attempts;
  }

  override recordAttempts(attempts: number): void {
    super.recordAttempts(attempts);
    this.options.attempts = attempts;
  }
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
 * Runs one engine call with the shared retries (`withRetries`): 429, 5xx and lost connections are retried
 * within the caller's signal and deadline. The SDKs' own retries are off, so every attempt is counted.
 */
export function callWithRetries<T>(
  run: (attempt: number) => Promise<T>,
  toEngineError: (err: unknown) => EngineError,
  opts: { signal?: AbortSignal; deadline?: number; policy?: Partial<RetryPolicy> } = {},
): Promise<{ value: T; attempts: number }> {
  return withRetries(run, (err) => (err instanceof EngineError ? err : toEngineError(err)), opts);
}
