import { type ProviderConfig, type ResolvedProvider, readEngineConfig } from "../engine-types";
import type { Env } from "../env";

/**
 * Perplexity through Sonar chat completions, which always search the web. Default model `sonar-pro` (Sonar's
 * search model for fuller answers with more sources); PERPLEXITY_MODEL overrides it.
 */
export const PERPLEXITY_CONFIG: ProviderConfig = {
  engine: "Perplexity",
  provider: "perplexity",
  apiKeyEnv: "PERPLEXITY_API_KEY",
  baseUrlEnv: "PERPLEXITY_BASE_URL",
  modelEnv: "PERPLEXITY_MODEL",
  defaultBaseUrl: "https://api.perplexity.ai",
  defaultModel: "sonar-pro",
};

/** The key, base URL and model to ask with, or null when PERPLEXITY_API_KEY is not set. */
export function readPerplexityConfig(env: Env = process.env): ResolvedProvider | null {
  return readEngineConfig(PERPLEXITY_CONFIG, env);
}
