import { type ProviderConfig, type ResolvedProvider, readEngineConfig } from "../engine-types";
import type { Env } from "../env";

/**
 * ChatGPT through the OpenAI Responses API with the `web_search` tool. Default model `gpt-5.5`, a current GPT-5
 * model that the web search tool supports; OPENAI_MODEL overrides it.
 */
export const OPENAI_CONFIG: ProviderConfig = {
  engine: "ChatGPT",
  provider: "openai",
  apiKeyEnv: "OPENAI_API_KEY",
  baseUrlEnv: "OPENAI_BASE_URL",
  modelEnv: "OPENAI_MODEL",
  defaultBaseUrl: "https://api.openai.com/v1",
  defaultModel: "gpt-5.5",
};

/** The key, base URL and model to ask with, or null when OPENAI_API_KEY is not set. */
export function readOpenAiConfig(env: Env = process.env): ResolvedProvider | null {
  return readEngineConfig(OPENAI_CONFIG, env);
}
