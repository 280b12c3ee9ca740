import { type ProviderConfig, type ResolvedProvider, readEngineConfig } from "../engine-types";
import type { Env } from "../env";

/**
 * Claude through the Anthropic Messages API with the web search server tool. Default model `claude-sonnet-5`
 * (Anthropic's balance of speed and quality, web search supported); ANTHROPIC_MODEL overrides it.
 */
export const ANTHROPIC_CONFIG: ProviderConfig = {
  engine: "Claude",
  provider: "anthropic",
  apiKeyEnv: "ANTHROPIC_API_KEY",
  baseUrlEnv: "ANTHROPIC_BASE_URL",
  modelEnv: "ANTHROPIC_MODEL",
  defaultBaseUrl: "https://api.anthropic.com",
  defaultModel: "claude-sonnet-5",
};

/** The web search server tool version sent; 20250305 is the one every current Claude model accepts. */
export const ANTHROPIC_WEB_SEARCH_TOOL = "web_search_20250305" as const;

/** The key, base URL and model to ask with, or null when ANTHROPIC_API_KEY is not set. */
export function readAnthropicConfig(env: Env = process.env): ResolvedProvider | null {
  return readEngineConfig(ANTHROPIC_CONFIG, env);
}
