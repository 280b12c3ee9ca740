import { askEngine as askClaude } from "./anthropic/ask";
import type { AskEngine, EngineName } from "./engine-types";
import { askEngine as askGemini } from "./gemini/ask";
import { askEngine as askChatGpt } from "./openai/ask";
import { askEngine as askPerplexity } from "./perplexity/ask";

/** Each engine's adapter. Server-only: it loads the providers' SDKs. */
export const ENGINE_ADAPTERS: Record<EngineName, AskEngine> = {
  ChatGPT: askChatGpt,
  Perplexity: askPerplexity,
  Claude: askClaude,
  Gemini: askGemini,
};
