// The rows of the AI access matrix: one per AI operator and purpose, each with the robots.txt token that
// governs it. Operator and purpose come from the bot catalogue, so tracking and audits describe a crawler
// the same way; the user-agent strings are the ones the operators document, for asking the server itself.
import { type BotPurpose, getBotDefinition } from "@/lib/tracking/catalog/bots";
import type { AiPurpose } from "./schema";

export interface AiAgent {
  /** The catalogue's name, as tracking records visits under it. */
  name: string;
  operator: string;
  token: string;
  purpose: AiPurpose;
  /** The engine or product people know it by, for sentences ("ChatGPT cannot read …"). */
  product: string;
  /** A documented user agent; null for control tokens no crawler sends (Google-Extended). */
  userAgent: string | null;
}

/** [catalogue name, product, documented user agent or null]. Order: the matrix's and the probes' priority. */
const AGENTS: readonly [string, string, string | null][] = [
  [
    "GPTBot",
    "ChatGPT",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
  ],
  [
    "OAI-SearchBot",
    "ChatGPT search",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
  ],
  [
    "ChatGPT-User",
    "ChatGPT",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  ],
  [
    "ClaudeBot",
    "Claude",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  ],
  [
    "Claude-SearchBot",
    "Claude search",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com)",
  ],
  [
    "Claude-User",
    "Claude",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
  ],
  [
    "PerplexityBot",
    "Perplexity",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
  ],
  [
    "Perplexity-User",
    "Perplexity",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
  ],
  ["Google-Extended", "Gemini", null],
  [
    "Googlebot",
    "Google Search and AI Overviews",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  ],
  ["Applebot-Extended", "Apple Intelligence", null],
  [
    "Applebot",
    "Siri and Spotlight",
    "Mozilla/5.0 (compatible; Applebot/0.3; +http://www.apple.com/go/applebot)",
  ],
  [
    "Meta-ExternalAgent",
    "Meta AI",
    "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
  ],
  [
    "Meta-ExternalFetcher",
    "Meta AI",
    "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
  ],
  [
    "Amazonbot",
    "Alexa",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
  ],
  ["CCBot", "Common Crawl", "CCBot/2.0 (https://commoncrawl.org/faq/)"],
  [
    "Bytespider",
    "Doubao",
    "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
  ],
  [
    "MistralAI-User",
    "Le Chat",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
  ],
  ["DuckAssistBot", "DuckAssist", "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)"],
  ["Bingbot", "Bing and Copilot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"],
];

/** A browser's user agent: what the server answers people, to compare the crawlers' answers with. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

function purposeOf(purpose: BotPurpose): AiPurpose {
  if (purpose === "training") return "training";
  if (purpose === "ai_search" || purpose === "search_engine") return "search-index";
  return "user-fetch";
}

export const AI_AGENTS: readonly AiAgent[] = AGENTS.map(([name, product, userAgent]) => {
  const def = getBotDefinition(name);
  if (!def?.robotsToken) throw new Error(`${name} is not in the bot catalogue with a robots.txt token.`);
  return {
    name: def.name,
    operator: def.operator ?? "unknown",
    token: def.robotsToken,
    purpose: purposeOf(def.purpose),
    product,
    userAgent,
  };
});
