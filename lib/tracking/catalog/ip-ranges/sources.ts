// Where operators publish the IP ranges their crawlers use. One row per published file; the data file of the
// same key lives in lib/tracking/data/<key>.json and is rewritten by `scripts/refresh-bot-ranges.ts`.
//
// Not listed, on purpose: Meta, ByteDance, Yandex, Baidu, Cohere, xAI (no published list; verification is by
// reverse DNS or not possible at all). Amazon publishes its lists as web pages that embed the same JSON
// document the others serve as files (`embedded: "html"`: the refresh extracts it).

export const RANGE_SOURCE_KEYS = [
  "google-common-crawlers",
  "google-special-crawlers",
  "google-user-triggered-fetchers",
  "google-user-triggered-fetchers-google",
  "google-user-triggered-agents",
  "bing-bingbot",
  "openai-gptbot",
  "openai-searchbot",
  "openai-chatgpt-user",
  "openai-adsbot",
  "anthropic-bots",
  "perplexity-perplexitybot",
  "perplexity-user",
  "apple-applebot",
  "duckduckgo-duckduckbot",
  "duckduckgo-duckassistbot",
  "commoncrawl-ccbot",
  "mistral-index",
  "mistral-user",
  "parallel-shapbot",
  "amazon-amazonbot",
  "amazon-searchbot",
  "amazon-user",
] as const;

export type RangeSourceKey = (typeof RANGE_SOURCE_KEYS)[number];

export interface RangeSource {
  key: RangeSourceKey;
  operator: string;
  url: string;
  /** Human description of what the list covers, shown by the refresh script. */
  covers: string;
  /** "html": the URL is a web page with the JSON document (`{"creationTime": …, "prefixes": […]}`) inside. */
  embedded?: "html";
}

const GOOGLE = "https://developers.google.com/static/crawling/ipranges";

export const RANGE_SOURCES: readonly RangeSource[] = [
  // Google renamed googlebot.json to common-crawlers.json in March 2026; the old path redirects here.
  {
    key: "google-common-crawlers",
    operator: "Google",
    url: `${GOOGLE}/common-crawlers.json`,
    covers: "Googlebot and the other common crawlers",
  },
  {
    key: "google-special-crawlers",
    operator: "Google",
    url: `${GOOGLE}/special-crawlers.json`,
    covers: "AdsBot and other special-case crawlers",
  },
  {
    key: "google-user-triggered-fetchers",
    operator: "Google",
    url: `${GOOGLE}/user-triggered-fetchers.json`,
    covers: "user-triggered fetchers (gae.googleusercontent.com)",
  },
  {
    key: "google-user-triggered-fetchers-google",
    operator: "Google",
    url: `${GOOGLE}/user-triggered-fetchers-google.json`,
    covers: "user-triggered fetchers (google.com)",
  },
  {
    key: "google-user-triggered-agents",
    operator: "Google",
    url: `${GOOGLE}/user-triggered-agents.json`,
    covers: "Google-Agent",
  },
  {
    key: "bing-bingbot",
    operator: "Microsoft",
    url: "https://www.bing.com/toolbox/bingbot.json",
    covers: "Bingbot and Microsoft's other crawlers",
  },
  { key: "openai-gptbot", operator: "OpenAI", url: "https://openai.com/gptbot.json", covers: "GPTBot" },
  {
    key: "openai-searchbot",
    operator: "OpenAI",
    url: "https://openai.com/searchbot.json",
    covers: "OAI-SearchBot",
  },
  {
    key: "openai-chatgpt-user",
    operator: "OpenAI",
    url: "https://openai.com/chatgpt-user.json",
    covers: "ChatGPT-User",
  },
  { key: "openai-adsbot", operator: "OpenAI", url: "https://openai.com/adsbot.json", covers: "OAI-AdsBot" },
  {
    key: "anthropic-bots",
    operator: "Anthropic",
    url: "https://claude.com/crawling/bots.json",
    covers: "ClaudeBot, Claude-SearchBot and Claude-User (one shared list)",
  },
  {
    key: "perplexity-perplexitybot",
    operator: "Perplexity",
    url: "https://www.perplexity.com/perplexitybot.json",
    covers: "PerplexityBot",
  },
  {
    key: "perplexity-user",
    operator: "Perplexity",
    url: "https://www.perplexity.com/perplexity-user.json",
    covers: "Perplexity-User",
  },
  {
    key: "apple-applebot",
    operator: "Apple",
    url: "https://search.developer.apple.com/applebot.json",
    covers: "Applebot",
  },
  {
    key: "duckduckgo-duckduckbot",
    operator: "DuckDuckGo",
    url: "https://duckduckgo.com/duckduckbot.json",
    covers: "DuckDuckBot",
  },
  {
    key: "duckduckgo-duckassistbot",
    operator: "DuckDuckGo",
    url: "https://duckduckgo.com/duckassistbot.json",
    covers: "DuckAssistBot",
  },
  {
    key: "commoncrawl-ccbot",
    operator: "Common Crawl",
    url: "https://index.commoncrawl.org/ccbot.json",
    covers: "CCBot",
  },
  {
    key: "mistral-index",
    operator: "Mistral AI",
    url: "https://mistral.ai/mistralai-index-ips.json",
    covers: "MistralAI-Index",
  },
  {
    key: "mistral-user",
    operator: "Mistral AI",
    url: "https://mistral.ai/mistralai-user-ips.json",
    covers: "MistralAI-User",
  },
  {
    key: "parallel-shapbot",
    operator: "Parallel",
    url: "https://docs.parallel.ai/resources/shapbot.json",
    covers: "ShapBot",
  },
  // Amazon (https://developer.amazon.com/amazonbot): one page per crawler, each embedding its JSON list.
  {
    key: "amazon-amazonbot",
    operator: "Amazon",
    url: "https://developer.amazon.com/amazonbot/ip-addresses/",
    covers: "Amazonbot",
    embedded: "html",
  },
  {
    key: "amazon-searchbot",
    operator: "Amazon",
    url: "https://developer.amazon.com/amazonbot/searchbot-ip-addresses/",
    covers: "Amzn-SearchBot",
    embedded: "html",
  },
  {
    key: "amazon-user",
    operator: "Amazon",
    url: "https://developer.amazon.com/amazonbot/live-ip-addresses/",
    covers: "Amzn-User",
    embedded: "html",
  },
];
