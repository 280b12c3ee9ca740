import type { Env } from "./env";

/** The four AI answer engines, in the order the API lists them. */
export const ENGINE_NAMES = ["ChatGPT", "Perplexity", "Claude", "Gemini"] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export type { Env };

export interface EngineSource {
  url: string;
  title: string;
}

export interface EngineUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One engine's answer to one prompt, read from the provider's own response. */
export interface EngineAnswer {
  engine: EngineName;
  model: string;
  answer: string;
  /**
   * Cited: the URLs the engine attached to its answer, in the order it gave them, without duplicates (OpenAI
   * `url_citation` annotations, Anthropic `web_search_result_location` citations, the Gemini grounding chunks
   * its grounding supports point at, Perplexity `citations`).
   */
  sources: EngineSource[];
  /**
   * Retrieved: the search results the engine pulled in, cited or not (OpenAI web search call `action.sources`,
   * Anthropic `web_search_tool_result` blocks, Gemini `groundingChunks`, Perplexity `search_results`). Never
   * merged into `sources`.
   */
  retrieved: EngineSource[];
  /**
   * The searches the engine ran (its fan-out queries): OpenAI web search call `action.queries`/`action.query`,
   * Anthropic `server_tool_use` input, Gemini `webSearchQueries`. Perplexity's API reports none: always empty.
   */
  queries: string[];
  usage: EngineUsage;
  /** HTTP attempts made, retries included (for operators). */
  attempts: number;
}

export interface AskRequest {
  prompt: string;
  signal?: AbortSignal;
  /** Epoch milliseconds after which no retry is started (the job's time limit). */
  deadline?: number;
  env?: Env;
  retry?: Partial<RetryPolicy>;
  /**
   * Awaited before each request of the answer after its first (a continued turn), so a caller pacing its requests
   * to the provider's limit can give that request a slot too. Throwing stops the answer.
   */
  beforeFollowUp?: () => Promise<void>;
}

export type AskEngine = (request: AskRequest) => Promise<EngineAnswer>;

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff; doubled on each retry, with jitter, when the provider sends no Retry-After. */
  baseDelayMs: number;
  /** No single wait is longer than this, Retry-After included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 30_000 };

/** Static description of a provider, free of SDK imports so it can be read anywhere. */
export interface ProviderConfig {
  engine: EngineName;
  provider: "openai" | "anthropic" | "gemini" | "perplexity";
  apiKeyEnv: string;
  baseUrlEnv: string;
  modelEnv: string;
  defaultBaseUrl: string;
  defaultModel: string;
}

export interface ResolvedProvider {
  apiKey: string;
  baseUrl: string;
  model: string;
}

/** The key, base URL and model the environment gives a provider; the key is empty when it is not configured. */
export function resolveProvider(config: ProviderConfig, env: Env = process.env): ResolvedProvider {
  return {
    apiKey: env[config.apiKeyEnv]?.trim() ?? "",
    baseUrl: env[config.baseUrlEnv]?.trim() || config.defaultBaseUrl,
    model: env[config.modelEnv]?.trim() || config.defaultModel,
  };
}

/** A provider's key, base URL and model, or null when its key is not set (the engine cannot be asked). */
export function readEngineConfig(config: ProviderConfig, env: Env = process.env): ResolvedProvider | null {
  const resolved = resolveProvider(config, env);
  return resolved.apiKey ? resolved : null;
}
