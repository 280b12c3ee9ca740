// The committed range files, bundled at build time so verification works in every runtime (serverless
// included). `scripts/refresh-bot-ranges.ts` rewrites the JSON files; a rebuild picks them up.

import amazonAmazonbot from "../data/amazon-amazonbot.json";
import amazonSearchbot from "../data/amazon-searchbot.json";
import amazonUser from "../data/amazon-user.json";
import anthropicBots from "../data/anthropic-bots.json";
import appleApplebot from "../data/apple-applebot.json";
import bingBingbot from "../data/bing-bingbot.json";
import commoncrawlCcbot from "../data/commoncrawl-ccbot.json";
import duckduckgoDuckassistbot from "../data/duckduckgo-duckassistbot.json";
import duckduckgoDuckduckbot from "../data/duckduckgo-duckduckbot.json";
import googleCommonCrawlers from "../data/google-common-crawlers.json";
import googleSpecialCrawlers from "../data/google-special-crawlers.json";
import googleUserTriggeredAgents from "../data/google-user-triggered-agents.json";
import googleUserTriggeredFetchers from "../data/google-user-triggered-fetchers.json";
import googleUserTriggeredFetchersGoogle from "../data/google-user-triggered-fetchers-google.json";
import mistralIndex from "../data/mistral-index.json";
import mistralUser from "../data/mistral-user.json";
import openaiAdsbot from "../data/openai-adsbot.json";
import openaiChatgptUser from "../data/openai-chatgpt-user.json";
import openaiGptbot from "../data/openai-gptbot.json";
import openaiSearchbot from "../data/openai-searchbot.json";
import parallelShapbot from "../data/parallel-shapbot.json";
import perplexityPerplexitybot from "../data/perplexity-perplexitybot.json";
import perplexityUser from "../data/perplexity-user.json";
import type { RangeSourceKey } from "./sources";

export const BUNDLED_RANGE_FEEDS: Record<RangeSourceKey, unknown> = {
  "google-common-crawlers": googleCommonCrawlers,
  "google-special-crawlers": googleSpecialCrawlers,
  "google-user-triggered-fetchers": googleUserTriggeredFetchers,
  "google-user-triggered-fetchers-google": googleUserTriggeredFetchersGoogle,
  "google-user-triggered-agents": googleUserTriggeredAgents,
  "bing-bingbot": bingBingbot,
  "openai-gptbot": openaiGptbot,
  "openai-searchbot": openaiSearchbot,
  "openai-chatgpt-user": openaiChatgptUser,
  "openai-adsbot": openaiAdsbot,
  "anthropic-bots": anthropicBots,
  "perplexity-perplexitybot": perplexityPerplexitybot,
  "perplexity-user": perplexityUser,
  "apple-applebot": appleApplebot,
  "duckduckgo-duckduckbot": duckduckgoDuckduckbot,
  "duckduckgo-duckassistbot": duckduckgoDuckassistbot,
  "commoncrawl-ccbot": commoncrawlCcbot,
  "amazon-amazonbot": amazonAmazonbot,
  "amazon-searchbot": amazonSearchbot,
  "amazon-user": amazonUser,
  "mistral-index": mistralIndex,
  "mistral-user": mistralUser,
  "parallel-shapbot": parallelShapbot,
};
