import { askEngine as askClaude } from "./anthropic/ask";
import { askStructured as askClaudeStructured } from "./anthropic/structured";
import type { AskEngine, EngineName } from "./engine-types";
import { askEngine as askGemini } from "./gemini/ask";
import { askStructured as askGeminiStructured } from "./gemini/structured";
import { askEngine as askChatGpt } from "./openai/ask";
import { askStructured as askChatGptStructured } from "./openai/structured";
import { askEngine as askPerplexity } from "./perplexity/ask";
import { askStructured as askPerplexityStructured } from "./perplexity/structured";
import type { AskStructured } from "./structured-types";

/** Each engine's adapter. Server-only: it loads the providers' SDKs. */
export const ENGINE_ADAPTERS: Record<EngineName, AskEngine> = {
  ChatGPT: askChatGpt,
  Perplexity: askPerplexity,
  Claude: askClaude,
  Gemini: askGemini,
};

/** Each engine's structured-output call (judgements such as the sentiment judge). Server-only. */
export const STRUCTURED_ADAPTERS: Record<EngineName, AskStructured> = {
  ChatGPT: askChatGptStructured,
  Perplexity: askPerplexityStructured,
  Claude: askClaudeStructured,
  Gemini: askGeminiStructured,
};
