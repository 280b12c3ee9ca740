/** The third parties the adapters under lib/providers talk to. */
export type ProviderName =
  | "openai"
  | "anthropic"
  | "gemini"
  | "perplexity"
  | "dataforseo"
  | "google"
  | "plausible"
  | "crux"
  | "stripe"
  | "smtp"
  | "agent-keys";

export interface ProviderErrorOptions {
  /** Whether the same call may succeed when made again (rate limits, the provider's own failures, lost connections). */
  retryable?: boolean;
  /** The provider's HTTP status (or its own status code), when it answered. */
  status?: number;
  /** How long the provider asked to be left alone (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * A failed call to a third party, whichever: which provider, a code from that provider's closed list, whether a
 * retry may help, and the message (written for the customer or the operator, never echoing a secret). Every
 * adapter's error extends it, so callers read `provider`, `code` and `retryable` without knowing the adapter.
 */
export class ProviderError<Code extends string = string> extends Error {
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** Calls made, retries included, when the call went through `withRetries`. */
  attempts?: number;

  constructor(
    readonly provider: ProviderName,
    readonly code: Code,
    message: string,
    options: ProviderErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.retryable = options.retryable ?? false;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** Records the calls made for this outcome (the retry helper sets it). */
  recordAttempts(attempts: number): void {
    this.attempts = attempts;
  }
}
