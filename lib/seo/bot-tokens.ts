/** `ai`: crawlers and fetchers of AI products; `search`: classic search engine crawlers. */
export type BotKind = "ai" | "search";
export type BotPurpose = "training" | "ai-search" | "ai-user-fetch" | "search-engine";

export interface BotToken {
  /** The robots.txt product token, as the operator documents it. */
  token: string;
  operator: string;
  kind: BotKind;
  purpose: BotPurpose;
}

/**
 * The robots.txt tokens checked for a page. Some are control tokens only (Google-Extended,
 * Applebot-Extended): no crawler sends them as a user agent, but robots.txt groups naming them
 * decide whether the content may train or ground that operator's models.
 */
export const BOT_TOKENS: readonly BotToken[] = [
  { token: "GPTBot", operator: "OpenAI", kind: "ai", purpose: "training" },
  { token: "OAI-SearchBot", operator: "OpenAI", kind: "ai", purpose: "ai-search" },
  { token: "ChatGPT-User", operator: "OpenAI", kind: "ai", purpose: "ai-user-fetch" },
  { token: "ClaudeBot", operator: "Anthropic", kind: "ai", purpose: "training" },
  { token: "Claude-SearchBot", operator: "Anthropic", kind: "ai", purpose: "ai-search" },
  { token: "Claude-User", operator: "Anthropic", kind: "ai", purpose: "ai-user-fetch" },
  { token: "anthropic-ai", operator: "Anthropic", kind: "ai", purpose: "training" },
  { token: "PerplexityBot", operator: "Perplexity", kind: "ai", purpose: "ai-search" },
  { token: "Perplexity-User", operator: "Perplexity", kind: "ai", purpose: "ai-user-fetch" },
  { token: "Google-Extended", operator: "Google", kind: "ai", purpose: "training" },
  { token: "Applebot-Extended", operator: "Apple", kind: "ai", purpose: "training" },
  { token: "Meta-ExternalAgent", operator: "Meta", kind: "ai", purpose: "training" },
  { token: "Meta-ExternalFetcher", operator: "Meta", kind: "ai", purpose: "ai-user-fetch" },
  { token: "Amazonbot", operator: "Amazon", kind: "ai", purpose: "ai-search" },
  { token: "DuckAssistBot", operator: "DuckDuckGo", kind: "ai", purpose: "ai-search" },
  { token: "MistralAI-User", operator: "Mistral", kind: "ai", purpose: "ai-user-fetch" },
  { token: "cohere-ai", operator: "Cohere", kind: "ai", purpose: "ai-user-fetch" },
  { token: "CCBot", operator: "Common Crawl", kind: "ai", purpose: "training" },
  { token: "Bytespider", operator: "ByteDance", kind: "ai", purpose: "training" },
  { token: "Googlebot", operator: "Google", kind: "search", purpose: "search-engine" },
  { token: "Bingbot", operator: "Microsoft", kind: "search", purpose: "search-engine" },
  { token: "Applebot", operator: "Apple", kind: "search", purpose: "search-engine" },
  { token: "DuckDuckBot", operator: "DuckDuckGo", kind: "search", purpose: "search-engine" },
  { token: "YandexBot", operator: "Yandex", kind: "search", purpose: "search-engine" },
  { token: "Baiduspider", operator: "Baidu", kind: "search", purpose: "search-engine" },
];
