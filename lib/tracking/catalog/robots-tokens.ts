// The bots a robots.txt audit reports on, taken from the one bot catalogue: their token, operator and
// purpose are the catalogue's, so tracking and audits never describe the same crawler two ways.
import { type BotPurpose, getBotDefinition } from "./bots";

/** `ai`: crawlers and fetchers of AI products; `search`: classic search engine crawlers. */
type BotKind = "ai" | "search";

export interface BotToken {
  /** The robots.txt product token, as the operator documents it. */
  token: string;
  operator: string;
  kind: BotKind;
  purpose: BotPurpose;
}

/**
 * The catalogue names checked for a page. Some are control tokens only (Google-Extended, Applebot-Extended):
 * no crawler sends them as a user agent, but robots.txt groups naming them decide whether the content may
 * train or ground that operator's models.
 */
export const AUDITED_BOT_NAMES = [
  "GPTBot",
  "OAI-SearchBot",
  "ChatGPT-User",
  "ClaudeBot",
  "Claude-SearchBot",
  "Claude-User",
  "anthropic-ai",
  "PerplexityBot",
  "Perplexity-User",
  "Google-Extended",
  "Applebot-Extended",
  "Meta-ExternalAgent",
  "Meta-ExternalFetcher",
  "Amazonbot",
  "DuckAssistBot",
  "MistralAI-User",
  "cohere-ai",
  "CCBot",
  "Bytespider",
  "Googlebot",
  "Bingbot",
  "Applebot",
  "DuckDuckBot",
  "YandexBot",
  "Baiduspider",
] as const;

function toBotToken(name: string): BotToken {
  const def = getBotDefinition(name);
  if (!def?.robotsToken) throw new Error(`${name} is not in the bot catalogue with a robots.txt token.`);
  return {
    token: def.robotsToken,
    operator: def.operator ?? "unknown",
    kind: def.isAIBot ? "ai" : "search",
    purpose: def.purpose,
  };
}

export const BOT_TOKENS: readonly BotToken[] = AUDITED_BOT_NAMES.map(toBotToken);
