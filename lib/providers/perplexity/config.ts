import type { ProviderConfig } from "../engine-types";

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
