import { type ProviderConfig, type ResolvedProvider, readEngineConfig } from "../engine-types";
import type { Env } from "../env";

/**
 * Gemini through `generateContent` with the Google Search grounding tool. Default model `gemini-3.8-flash`, the
 * model the official SDK's own examples use, which supports grounding; GEMINI_MODEL overrides it.
 */
export const GEMINI_CONFIG: ProviderConfig = {
  engine: "Gemini",
  provider: "gemini",
  apiKeyEnv: "GEMINI_API_KEY",
  baseUrlEnv: "GEMINI_BASE_URL",
  modelEnv: "GEMINI_MODEL",
  defaultBaseUrl: "https://generativelanguage.googleapis.com",
  defaultModel: "gemini-3.8-flash",
};

/** Grounding chunk URIs point here and redirect to the real page. */
export const GEMINI_REDIRECT_HOST = "vertexaisearch.cloud.google.com";

/** The key, base URL and model to ask with, or null when GEMINI_API_KEY is not set. */
export function readGeminiConfig(env: Env = process.env): ResolvedProvider | null {
  return readEngineConfig(GEMINI_CONFIG, env);
}
