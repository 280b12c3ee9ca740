import { describe, expect, test } from "vitest";
import { committedListsAsWhole } from "@/test/support/range-feeds";
import { BOT_DEFINITIONS, type BotPurpose } from "./bots";
import { classifyUserAgent, clearClassificationCache } from "./classify";
import { installRangeFeeds, verifyBotIp } from "./ip-ranges/verify";

type Expected = "human" | { name: string; purpose?: BotPurpose; engine?: string | null; isAIBot?: boolean };

const ai = (name: string, purpose: BotPurpose, engine: string | null): Expected => ({
  name,
  purpose,
  engine,
  isAIBot: true,
});
const web = (name: string, purpose: BotPurpose): Expected => ({
  name,
  purpose,
  engine: null,
  isAIBot: false,
});
const named = (name: string): Expected => ({ name });

// Real user agents: the strings operators document (Google's `W.X.Y.Z` placeholder included), strings from the
// crawler-user-agents and isbot fixtures, and current browsers.
const CASES: [string, string, Expected][] = [
  // OpenAI
  [
    "GPTBot 1.1",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
    ai("GPTBot", "training", "ChatGPT"),
  ],
  [
    "GPTBot 1.0",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot)",
    ai("GPTBot", "training", "ChatGPT"),
  ],
  [
    "ChatGPT-User",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    ai("ChatGPT-User", "ai_user_fetch", "ChatGPT"),
  ],
  [
    "OAI-SearchBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
    ai("OAI-SearchBot", "ai_search", "ChatGPT"),
  ],
  [
    "OAI-AdsBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-AdsBot/1.0; +https://openai.com/adsbot",
    ai("OAI-AdsBot", "other", null),
  ],
  // Anthropic
  [
    "ClaudeBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
    ai("ClaudeBot", "training", "Claude"),
  ],
  [
    "Claude-User",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
    ai("Claude-User", "ai_user_fetch", "Claude"),
  ],
  [
    "Claude-User from Claude Code",
    "Claude-User (claude-code/2.1.86; +https://support.anthropic.com/)",
    ai("Claude-User", "ai_user_fetch", "Claude"),
  ],
  [
    "Claude-SearchBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)",
    ai("Claude-SearchBot", "ai_search", "Claude"),
  ],
  [
    "Claude-Web (retired)",
    "Claude-Web/1.0 (web crawler; +https://www.anthropic.com/; bots@anthropic.com)",
    ai("Claude-Web", "training", "Claude"),
  ],
  ["anthropic-ai", "anthropic-ai", ai("anthropic-ai", "training", "Claude")],
  // Perplexity
  [
    "PerplexityBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
    ai("PerplexityBot", "ai_search", "Perplexity"),
  ],
  [
    "Perplexity-User",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
    ai("Perplexity-User", "ai_user_fetch", "Perplexity"),
  ],
  // Google
  [
    "Googlebot classic",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    web("Googlebot", "search_engine"),
  ],
  [
    "Googlebot desktop",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/W.X.Y.Z Safari/537.36",
    web("Googlebot", "search_engine"),
  ],
  ["Googlebot bare", "Googlebot/2.1 (+http://www.google.com/bot.html)", web("Googlebot", "search_engine")],
  [
    "Googlebot smartphone",
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/W.X.Y.Z Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    web("Googlebot-Smartphone", "search_engine"),
  ],
  [
    "Googlebot smartphone, real version",
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    web("Googlebot-Smartphone", "search_engine"),
  ],
  [
    "Googlebot old iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 8_3 like Mac OS X) AppleWebKit/600.1.4 (KHTML, like Gecko) Version/8.0 Mobile/12F70 Safari/600.1.4 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    web("Googlebot-Smartphone", "search_engine"),
  ],
  ["Googlebot-Image", "Googlebot-Image/1.0", web("Googlebot-Image", "search_engine")],
  ["Googlebot-Video", "Googlebot-Video/1.0", web("Googlebot-Video", "search_engine")],
  ["Googlebot-News", "Googlebot-News", web("Googlebot-News", "search_engine")],
  ["GoogleOther", "GoogleOther", web("GoogleOther", "other")],
  [
    "GoogleOther smartphone",
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/W.X.Y.Z Mobile Safari/537.36 (compatible; GoogleOther)",
    web("GoogleOther", "other"),
  ],
  ["GoogleOther-Image", "GoogleOther-Image/1.0", web("GoogleOther", "other")],
  [
    "Google-InspectionTool",
    "Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)",
    web("Google-InspectionTool", "search_engine"),
  ],
  [
    "Storebot-Google",
    "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36",
    web("Storebot-Google", "search_engine"),
  ],
  ["AdsBot-Google", "AdsBot-Google (+http://www.google.com/adsbot.html)", web("AdsBot-Google", "other")],
  [
    "Google-CloudVertexBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-CloudVertexBot; +https://cloud.google.com/enterprise-search) Chrome/W.X.Y.Z Safari/537.36",
    ai("Google-CloudVertexBot", "ai_search", null),
  ],
  [
    "Gemini-Deep-Research",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Gemini-Deep-Research; +https://gemini.google/overview/deep-research/) Chrome/135.0.0.0 Safari/537.36",
    ai("Gemini-Deep-Research", "ai_user_fetch", "Gemini"),
  ],
  [
    "Google-Agent",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent)",
    ai("Google-Agent", "ai_user_fetch", "Gemini"),
  ],
  [
    "Google-NotebookLM",
    "Mozilla/5.0 (compatible; Google-NotebookLM; +https://notebooklm.google.com/)",
    ai("Google-NotebookLM", "ai_user_fetch", "NotebookLM"),
  ],
  [
    "Gemini Notebook (desktop)",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36 (compatible; Google-GeminiNotebook; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-gemininotebook)",
    ai("Google-GeminiNotebook", "ai_user_fetch", "NotebookLM"),
  ],
  [
    "Gemini Notebook (mobile)",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36 (compatible; Google-GeminiNotebook; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-gemininotebook)",
    ai("Google-GeminiNotebook", "ai_user_fetch", "NotebookLM"),
  ],
  [
    "Kimi-SearchBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; Kimi-SearchBot/1.0; +https://www.kimi.com/policies/kimi-crawlers",
    ai("Kimi-SearchBot", "ai_search", "Kimi"),
  ],
  [
    "KimiBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; KimiBot/1.0; +https://www.kimi.com/policies/kimi-crawlers",
    ai("KimiBot", "training", "Kimi"),
  ],
  [
    "IbouBot",
    "Mozilla/5.0 (compatible; IbouBot/1.0; +bot@ibou.io; +https://ibou.io/iboubot.html)",
    ai("IbouBot", "ai_search", null),
  ],
  [
    "ProRata",
    "ProRataInc (The ProRata Fair Use Crawler; https://prorata.ai; support@prorata.ai)",
    ai("ProRataInc", "ai_search", null),
  ],
  [
    "GoGuidesCrawler",
    "Mozilla/5.0 (compatible; GoGuidesCrawler/2.0; +https://www.goguides.com/crawler)",
    ai("GoGuidesCrawler", "ai_search", null),
  ],
  [
    "GoGuidesDiscoveryBot",
    "GoGuidesDiscoveryBot/1.0 (+https://www.goguides.com/crawler)",
    ai("GoGuidesCrawler", "ai_search", null),
  ],
  ["webz.io", "webzio (+https://webz.io/bot.html)", ai("webzio", "training", null)],
  [
    "UdV-AI-Research",
    "Mozilla/5.0 (compatible; UdV-AI-Research/1.0)",
    ai("UdV-AI-Research", "training", null),
  ],
  ["SentiBot", "SentiBot www.sentibot.eu (compatible with Googlebot)", ai("SentiBot", "training", null)],
  [
    "HuggingFace-Bot",
    "Mozilla/5.0 (compatible; HuggingFace-Bot/1.0; +https://huggingface.co/)",
    ai("HuggingFace-Bot", "training", null),
  ],
  [
    "Replicate-Bot",
    "Mozilla/5.0 (compatible; Replicate-Bot/1.0; +https://replicate.com/)",
    ai("Replicate-Bot", "training", null),
  ],
  [
    "Together-Bot",
    "Mozilla/5.0 (compatible; Together-Bot/1.0; +https://together.ai/)",
    ai("Together-Bot", "training", null),
  ],
  [
    "RunPod-Bot",
    "Mozilla/5.0 (compatible; RunPod-Bot/1.0; +https://runpod.io/)",
    ai("RunPod-Bot", "training", null),
  ],
  [
    "Groq-Bot",
    "Mozilla/5.0 (compatible; Groq-Bot/1.0; +https://groq.com/)",
    ai("Groq-Bot", "training", null),
  ],
  ["xAI-Bot", "Mozilla/5.0 (compatible; xAI-Bot/1.0; +https://x.ai/)", ai("xAI-Bot", "training", null)],
  [
    "Google-Extended is never a user agent",
    "Mozilla/5.0 (compatible; Google-Extended/1.0; +http://www.google.com/bot.html)",
    { name: "Google-Extended (spoofed)", purpose: "other", engine: null, isAIBot: false },
  ],
  // Microsoft
  [
    "bingbot classic",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    web("Bingbot", "search_engine"),
  ],
  [
    "bingbot desktop",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
    web("Bingbot", "search_engine"),
  ],
  [
    "bingbot mobile",
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.1938.76 Mobile Safari/537.36 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    web("Bingbot", "search_engine"),
  ],
  [
    "BingPreview",
    "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/534+ (KHTML, like Gecko) BingPreview/1.0b",
    web("BingPreview", "other"),
  ],
  [
    "adidxbot links to bingbot.htm",
    "Mozilla/5.0 (compatible; adidxbot/2.0; +http://www.bing.com/bingbot.htm)",
    web("AdIdxBot", "other"),
  ],
  // Apple
  [
    "Applebot desktop",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
    web("Applebot", "search_engine"),
  ],
  [
    "Applebot iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1 (Applebot/0.1; +http://www.apple.com/go/applebot)",
    web("Applebot", "search_engine"),
  ],
  [
    "Applebot compatible",
    "Mozilla/5.0 (compatible; Applebot/0.3; +http://www.apple.com/go/applebot)",
    web("Applebot", "search_engine"),
  ],
  [
    "Applebot-Extended is never a user agent",
    "Mozilla/5.0 (compatible; Applebot-Extended/0.1)",
    { name: "Applebot-Extended (spoofed)", isAIBot: false },
  ],
  // Meta
  [
    "meta-externalagent",
    "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
    ai("Meta-ExternalAgent", "training", "Meta AI"),
  ],
  [
    "meta-externalfetcher",
    "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
    ai("Meta-ExternalFetcher", "ai_user_fetch", "Meta AI"),
  ],
  [
    "meta-webindexer",
    "meta-webindexer/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
    ai("Meta-WebIndexer", "ai_search", "Meta AI"),
  ],
  [
    "FacebookBot",
    "Mozilla/5.0 (compatible; FacebookBot/1.0; +https://developers.facebook.com/docs/sharing/webmasters/facebookbot/)",
    ai("FacebookBot", "training", "Meta AI"),
  ],
  [
    "facebookexternalhit",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    web("facebookexternalhit", "other"),
  ],
  // Amazon
  [
    "Amazonbot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
    ai("Amazonbot", "training", "Alexa"),
  ],
  [
    "Amazonbot old",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/600.2.5 (KHTML, like Gecko) Version/8.0.2 Safari/600.2.5 (Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)",
    ai("Amazonbot", "training", "Alexa"),
  ],
  [
    "Amzn-SearchBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amzn-SearchBot/0.1) Chrome/119.0.6045.214 Safari/537.36",
    ai("Amzn-SearchBot", "ai_search", "Alexa"),
  ],
  [
    "Amzn-User",
    "Mozilla/5.0 (compatible; Amzn-User; +https://developer.amazon.com/)",
    ai("Amzn-User", "ai_user_fetch", "Alexa"),
  ],
  // DuckDuckGo
  [
    "DuckDuckBot",
    "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
    web("DuckDuckBot", "search_engine"),
  ],
  [
    "DuckDuckBot-Https",
    "Mozilla/5.0 (compatible; DuckDuckBot-Https/1.1; https://duckduckgo.com/duckduckbot)",
    web("DuckDuckBot", "search_engine"),
  ],
  [
    "DuckAssistBot",
    "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)",
    ai("DuckAssistBot", "ai_user_fetch", "DuckAssist"),
  ],
  // Other AI
  [
    "MistralAI-User",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
    ai("MistralAI-User", "ai_user_fetch", "Mistral"),
  ],
  ["CCBot", "CCBot/2.0 (https://commoncrawl.org/faq/)", ai("CCBot", "training", null)],
  [
    "ShapBot",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ShapBot/0.1.0",
    ai("ShapBot", "ai_search", "Parallel"),
  ],
  [
    "Bytespider",
    "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
    ai("Bytespider", "training", null),
  ],
  [
    "Bytespider iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 11_0 like Mac OS X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.4454.1745 Mobile Safari/537.36; Bytespider",
    ai("Bytespider", "training", null),
  ],
  ["cohere-ai", "cohere-ai", ai("cohere-ai", "ai_user_fetch", "Cohere")],
  [
    "cohere-training-data-crawler",
    "cohere-training-data-crawler (+crawler@cohere.ai)",
    ai("cohere-training-data-crawler", "training", "Cohere"),
  ],
  [
    "Diffbot",
    "Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:1.9.1.2) Gecko/20090729 Firefox/3.5.2 (.NET CLR 3.5.30729; Diffbot/0.1; +http://www.diffbot.com)",
    ai("Diffbot", "training", null),
  ],
  ["YouBot", "YouBot (+http://www.you.com)", ai("YouBot", "ai_search", "You.com")],
  ["AI2Bot", "AI2Bot", ai("AI2Bot", "training", null)],
  ["Timpibot", "Timpibot/0.9 (+http://www.timpi.io)", ai("Timpibot", "training", null)],
  [
    "ImagesiftBot",
    "Mozilla/5.0 (compatible; ImagesiftBot; +imagesift.com)",
    ai("ImagesiftBot", "training", null),
  ],
  // Search engines
  [
    "YandexBot",
    "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
    web("YandexBot", "search_engine"),
  ],
  [
    "YandexBot iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 8_1 like Mac OS X) AppleWebKit/600.1.4 (KHTML, like Gecko) Version/8.0 Mobile/12B411 Safari/600.1.4 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
    web("YandexBot", "search_engine"),
  ],
  [
    "Baiduspider",
    "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
    web("Baiduspider", "search_engine"),
  ],
  [
    "Baiduspider-render",
    "Mozilla/5.0 (compatible; Baiduspider-render/2.0; +http://www.baidu.com/search/spider.html)",
    web("Baiduspider", "search_engine"),
  ],
  [
    "PetalBot",
    "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)",
    web("PetalBot", "search_engine"),
  ],
  // SEO tools
  [
    "AhrefsBot",
    "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
    web("AhrefsBot", "seo"),
  ],
  [
    "AhrefsSiteAudit",
    "Mozilla/5.0 (compatible; AhrefsSiteAudit/6.1; +http://ahrefs.com/robot/)",
    web("AhrefsBot", "seo"),
  ],
  [
    "SemrushBot",
    "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
    web("SemrushBot", "seo"),
  ],
  ["MJ12bot", "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", web("MJ12bot", "seo")],
  [
    "DotBot",
    "Mozilla/5.0 (compatible; DotBot/1.1; http://www.opensiteexplorer.org/dotbot, help@moz.com)",
    web("DotBot", "seo"),
  ],
  ["Screaming Frog", "Screaming Frog SEO Spider/5.1", web("Screaming Frog", "seo")],
  // Link previews
  ["Twitterbot", "Twitterbot/1.0", web("Twitterbot", "other")],
  [
    "LinkedInBot",
    "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
    web("LinkedInBot", "other"),
  ],
  ["Slackbot", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", web("Slackbot", "other")],
  [
    "Discordbot",
    "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    web("Discordbot", "other"),
  ],
  ["TelegramBot says like TwitterBot", "TelegramBot (like TwitterBot)", web("TelegramBot", "other")],
  [
    "Pinterestbot",
    "Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)",
    web("Pinterestbot", "other"),
  ],
  ["WhatsApp preview", "WhatsApp/0.3.4479 N", web("WhatsApp", "other")],
  // Google's special-case crawlers and user-triggered fetchers.
  [
    "Mediapartners-Google",
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Mediapartners-Google/2.1; +http://www.google.com/bot.html)",
    web("Mediapartners-Google", "other"),
  ],
  ["Mediapartners-Google (desktop)", "Mediapartners-Google", web("Mediapartners-Google", "other")],
  [
    "APIs-Google",
    "APIs-Google (+https://developers.google.com/webmasters/APIs-Google.html)",
    web("APIs-Google", "other"),
  ],
  ["Google-Safety", "Google-Safety", web("Google-Safety", "other")],
  [
    "FeedFetcher-Google",
    "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)",
    web("FeedFetcher-Google", "other"),
  ],
  [
    "Google-Read-Aloud",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Safari/537.36 (compatible; Google-Read-Aloud; +https://support.google.com/webmasters/answer/1061943)",
    web("Google-Read-Aloud", "other"),
  ],
  [
    "Google-Site-Verification",
    "Mozilla/5.0 (compatible; Google-Site-Verification/1.0)",
    web("Google-Site-Verification", "other"),
  ],
  [
    "GoogleProducer",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Safari/537.36 (compatible; GoogleProducer; +https://developers.google.com/search/docs/crawling-indexing/google-producer)",
    web("GoogleProducer", "other"),
  ],
  ["Google-CWS", "Mozilla/5.0 (compatible; Google-CWS)", web("Google-CWS", "other")],
  ["Google-Pinpoint", "Google-Pinpoint", web("Google-Pinpoint", "other")],
  [
    "a feed reader like FeedFetcher-Google",
    "Feedly/1.0 (+http://www.feedly.com/fetcher.html; like FeedFetcher-Google)",
    web("Feedly", "other"),
  ],
  // Tools dressed as browsers, from the public device-detection bot list (each its own product token).
  ["Daum", "Mozilla/5.0 (compatible; MSIE or Firefox mutant;) Daum 4.1", web("Daum", "search_engine")],
  [
    "DuplexWeb-Google",
    "Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; DuplexWeb-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/74.0.3729.131 Mobile Safari/537.36",
    web("DuplexWeb-Google", "other"),
  ],
  [
    "Cloudflare Observatory",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36 CloudflareObservatory/1.0",
    web("CloudflareObservatory", "other"),
  ],
  [
    "Cloudflare Diagnostics",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_13_6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/67.0.3396.99 Safari/537.36 CloudflareDiagnostics/1.0",
    web("CloudflareDiagnostics", "other"),
  ],
  [
    "360JK",
    "Mozilla/5.0 (compatible; MSIE 7.0; Windows NT 5.1; .NET CLR 1.1.4322) 360JK yunjiankong 427691",
    web("360JK", "other"),
  ],
  [
    "Site24x7 Defacement Monitor",
    "Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) HLB/1.247",
    web("Site24x7 Defacement Monitor", "other"),
  ],
  [
    "Tag Inspector",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) TagInspector/500.1 Chrome/90.0.4430.72 Safari/537.36 Edg/90.0.818.42",
    web("TagInspector", "other"),
  ],
  ["Morningscore", "Mozilla/5.0 (Morningscore/1.0)", web("Morningscore", "seo")],
  ["WhatCMS", "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:66.0) WhatCMS/1.0", web("WhatCMS", "other")],
  [
    "Sparkler",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_6) AppleWebKit/537.36 (KHTML, like Gecko) Sparkler/0.2.0-SNAPSHOT",
    web("Sparkler", "other"),
  ],
  ["Mixnode", "Mozilla/5.0 (Mixnode) AppleWebKit/537.36 (KHTML, like Gecko)", web("Mixnode", "other")],
  [
    "UCSB Network Measurement",
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:80.0) Gecko/20100101 Firefox/80.0 UCSBNetworkMeasurement/2023 (contact; stijn; at; ucsb.edu;)",
    web("UCSBNetworkMeasurement", "other"),
  ],
  ["infrawatch", "Mozilla/5.0 infrawatch/0.1", web("infrawatch", "other")],
  [
    "Functionize",
    "Mozilla/5.0 (X11; Windows x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36 Functionize",
    web("Functionize", "other"),
  ],
  [
    "Miniature.io",
    "Mozilla/5.0 (X11; Linux x86_64) Miniature.io/6.0 AppleWebKit/537.36 (KHTML, like Gecko) QtWebEngine/5.12.4 Chrome/69.0.3497.128 Safari/537.36",
    web("Miniature.io", "other"),
  ],
  [
    "Convertify",
    "Mozilla/5.0 (Linux; Android 9; SM-G973F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/75.0.3770.101 Mobile Safari/537.36 Convertify",
    web("Convertify", "other"),
  ],
  ["xtate", "Mozilla/5.0 xtate/2.12.4", web("xtate", "other")],
  [
    "Microsoft Power Automate",
    "azure-logic-apps/1.0 (workflow 0123456789abcdef0123456789abcdef; version 08585000000000000000) microsoft-flow/1.0",
    web("Microsoft Power Automate", "other"),
  ],
  [
    "Assetnote",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/60.0.3122.113 Safari/537.36 Assetnote/1.0.0",
    web("Assetnote", "other"),
  ],
  [
    "CybaaAgent",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 CybaaAgent",
    web("CybaaAgent", "other"),
  ],
  ["ArtelLeadRadar", "Mozilla/5.0 ArtelLeadRadar/4.0", web("ArtelLeadRadar", "other")],
  ["Goosee-Audit", "Goosee-Audit/1.0 (+internal-security-audit)", web("Goosee-Audit", "other")],
  [
    "KarnoProspectingStudio",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) KarnoProspectingStudio/0.1 Safari/537.36",
    web("KarnoProspectingStudio", "other"),
  ],
  ["OnlyScans", "Mozilla/5.0 OnlyScans", web("OnlyScans", "other")],
  ["Keydrop", "Mozilla/5.0 Keydrop", web("Keydrop", "other")],
  ["project_patchwatch", "Mozilla/5.0 project_patchwatch", web("project_patchwatch", "other")],
  ["Exchange check", "Mozilla/5.0 (Exchange check)", web("Exchange check", "other")],
  [
    "iplabel",
    "Mozilla/5.0 (iplabel; Windows NT 6.3; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.75 Safari/537.36",
    web("iplabel", "other"),
  ],
  [
    "UkrNet Mail Proxy",
    "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/55.0.2883.87 Safari/537.36 (via secureurl.fwdcdn.com - mail.ukr.net proxy)",
    web("UkrNet Mail Proxy", "other"),
  ],
  ["Laravel Reaver", "Mozilla/5.0 (Laravel Reaver .env Presence)", web("Laravel Reaver", "other")],
  ["OpenRobotsTXT", "Mozilla/5.0 (compatible; ORT/v1.0.0; visit ORTc.me )", web("ORT", "other")],
  [
    "Apache internal dummy connection",
    "Apache/2.2.2 (Fedora) (internal dummy connection)",
    web("Apache (internal dummy connection)", "other"),
  ],
  [
    "a browser template with no values",
    "Mozilla/5.0 (platform; rv:geckoversion) Gecko/geckotrail Firefox/firefoxversion",
    web("Template user agent", "other"),
  ],
  ["a browser's first word alone", "Mozilla/5.0 (compatible)", web("Template user agent", "other")],
  // Bots we do not list ourselves: named from crawler-user-agents, or from isbot's match.
  ["curl", "curl/8.4.0", { name: "curl", purpose: "other", isAIBot: false }],
  [
    "python-requests",
    "python-requests/2.31.0",
    { name: "python-requests", purpose: "other", isAIBot: false },
  ],
  [
    "HeadlessChrome",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
    { name: "HeadlessChrome", purpose: "other" },
  ],
  ["Go http client", "Go-http-client/1.1", named("Go-http-client")],
  ["Wget", "Wget/1.21.4", named("Wget")],
  ["Scrapy", "Scrapy/2.11.0 (+https://scrapy.org)", named("Scrapy")],
  ["axios", "axios/1.6.8", named("axios")],
  ["Apache HttpClient", "Apache-HttpClient/4.5.13 (Java/11.0.19)", named("Apache-HttpClient")],
  ["Java", "Java/1.8.0_151", named("Java")],
  [
    "Qwantbot",
    "Mozilla/5.0 (compatible; Qwantbot/1.0_800166; +https://help.qwant.com/bot/)",
    { name: "Qwantbot", purpose: "search_engine" },
  ],
  [
    "SeznamBot",
    "Mozilla/5.0 (compatible; SeznamBot/3.2-test1; +http://napoveda.seznam.cz/en/seznambot-intro/)",
    { name: "SeznamBot", purpose: "search_engine" },
  ],
  [
    "MojeekBot",
    "Mozilla/5.0 (compatible; MojeekBot/0.2; http://www.mojeek.com/bot.html)",
    { name: "MojeekBot", purpose: "search_engine" },
  ],
  [
    "Exabot named by its product, not its URL",
    "Mozilla/5.0 (compatible; Exabot-Images/3.0; +http://www.exabot.com/go/robot)",
    named("Exabot-Images"),
  ],
  [
    "DeepSeekBot",
    "Mozilla/5.0 (compatible; DeepSeekBot/1.0; +https://www.deepseek.com/bot)",
    { name: "DeepSeekBot", isAIBot: true },
  ],
  ["empty user agent", "", { name: "(no user agent)", purpose: "other", isAIBot: false }],
  ["dash user agent", "-", { name: "(no user agent)", purpose: "other", isAIBot: false }],
  // Browsers
  [
    "Chrome Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "human",
  ],
  [
    "Chrome macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "human",
  ],
  [
    "Chrome Linux",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "human",
  ],
  [
    "Chrome OS",
    "Mozilla/5.0 (X11; CrOS x86_64 13904.66.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.114 Safari/537.36",
    "human",
  ],
  [
    "Chrome Android",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    "human",
  ],
  [
    "Chrome iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
    "human",
  ],
  [
    "Firefox Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "human",
  ],
  [
    "Firefox macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0",
    "human",
  ],
  ["Firefox Linux", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "human"],
  ["Firefox Android", "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0", "human"],
  [
    "Firefox iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
    "human",
  ],
  [
    "Safari macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "human",
  ],
  [
    "Safari iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "human",
  ],
  [
    "Safari iPad",
    "Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1",
    "human",
  ],
  [
    "iOS web view",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    "human",
  ],
  [
    "Edge Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
    "human",
  ],
  [
    "Edge Android",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0",
    "human",
  ],
  [
    "Edge iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 13_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 EdgiOS/44.10.19 Mobile/15E148 Safari/605.1.15",
    "human",
  ],
  [
    "Edge on Xbox",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.18363",
    "human",
  ],
  [
    "Samsung Internet",
    "Mozilla/5.0 (Linux; Android 9; SAMSUNG SM-G960U) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/10.2 Chrome/71.0.3578.99 Mobile Safari/537.36",
    "human",
  ],
  [
    "Opera",
    "Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/56.0.2924.87 Safari/537.36 OPR/43.0.2442.991",
    "human",
  ],
  [
    "Vivaldi",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.99 Safari/537.36 Vivaldi/2.9.1705.41",
    "human",
  ],
  [
    "Brave",
    "Mozilla/5.0 (Linux; Android 9; Nokia 7 plus) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/74.0.3729.157 Mobile Safari/537.36 Brave/74",
    "human",
  ],
  [
    "Yandex Browser",
    "Mozilla/5.0 (Windows NT 6.2; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/28.0.1500.95 YaBrowser/13.10.1500.9323 Safari/537.36",
    "human",
  ],
  [
    "UC Browser",
    "Mozilla/5.0 (Linux; U; Android 6.0.1; zh-CN; F5121 Build/34.0.A.1.247) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/40.0.2214.89 UCBrowser/11.5.1.944 Mobile Safari/537.36",
    "human",
  ],
  // Apps and browsers whose names resemble crawlers
  [
    "DuckDuckGo browser (not DuckDuckBot)",
    "Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/84.0.4147.111 Mobile DuckDuckGo/5 Safari/537.36",
    "human",
  ],
  [
    "DuckDuckGo macOS app",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 DuckDuckGo/7",
    "human",
  ],
  [
    "Google app (not Googlebot)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 13_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/102.0.304944559 Mobile/15E148 Safari/604.1",
    "human",
  ],
  [
    "Google News app",
    "Mozilla/5.0 (Linux; Android 14; Pixel 6 Build/UPB3.230519.014) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/115.0.5790.21 Mobile Safari/537.36 GNews Android/2022137898",
    "human",
  ],
  [
    "Bing app (not Bingbot)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 12_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.0 Mobile/15E148 Safari/605.1.15 BingWeb/6.37.2.0",
    "human",
  ],
  [
    "LinkedIn app (not LinkedInBot)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 12_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]",
    "human",
  ],
  [
    "Twitter app (not Twitterbot)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 13_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/17D50 Twitter for iPhone/8.10",
    "human",
  ],
  [
    "Slack desktop (not Slackbot)",
    "Mozilla/5.0 (Windows NT 10.0.18362; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.4.2 Chrome/78.0.3904.130 Electron/7.2.1 Safari/537.36 WindowsStore/10.0.18362 Sonic Slack_SSB/4.4.2",
    "human",
  ],
  [
    "Discord desktop (not Discordbot)",
    "Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) discord/0.0.306 Chrome/78.0.3904.130 Electron/7.1.11 Safari/537.36",
    "human",
  ],
  [
    "Pinterest app (not Pinterestbot)",
    "Mozilla/5.0 (Linux; Android 9; STF-L09 Build/HUAWEISTF-L09; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/79.0.3945.79 Mobile Safari/537.36 [Pinterest/Android]",
    "human",
  ],
  [
    "Facebook app",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 13_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPhone11,8;FBMD/iPhone;FBSN/iOS;FBSV/13.3.1;FBSS/2;FBID/phone;FBLC/en_US;FBOP/5;FBCR/]",
    "human",
  ],
  [
    "Instagram (crawler list flags its build number)",
    "Mozilla/5.0 (Linux; Android 15; CPH2557 Build/AP3A.240617.008; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/142.0.7444.142 Mobile Safari/537.36 Instagram 406.0.0.58.159 Android (35/15; 480dpi; 1080x2400; OPPO; CPH2557; OP573DL1; mt6833; en_MY; 822918295; IABMV/1) NV/1",
    "human",
  ],
  [
    "VS Code (crawler list flags Code/1.)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.115.0 Chrome/142.0.7444.265 Electron/39.8.5 Safari/537.36",
    "human",
  ],
  [
    "Snapchat",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 14_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.1 Mobile/15E148 Snapchat/11.36.0.36 (like Safari/604.1)",
    "human",
  ],
  [
    "Cubot phone, Opera",
    "Mozilla/5.0 (Linux; Android 4.2.2; CUBOT C11 Build/JDQ39) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/31.0.1650.57 Mobile Safari/537.36 OPR/18.0.1290.66961",
    "human",
  ],
  [
    "Cubot phone, web view",
    "Mozilla/5.0 (Linux; Android 6.0; CUBOT DINOSAUR Build/MRA58K; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/44.0.2403.119 Mobile Safari/537.36",
    "human",
  ],
  [
    "Cubot phone, Chrome",
    "Mozilla/5.0 (Linux; Android 6.0; CUBOT MAX Build/MRA58K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.81 Mobile Safari/537.36",
    "human",
  ],
  [
    "Cubot phone, underscore model",
    "Mozilla/5.0 (Linux; Android 8.0.0; CUBOT_P20) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.110 Mobile Safari/537.36",
    "human",
  ],
  [
    "browser with 'bot' inside its name",
    "Opera/9.70 (Linux armv7l ; U; turbotabbee/TSV2.0/1.02Q; fr) Presto/2.2",
    "human",
  ],
  [
    "Tesla car browser",
    "Mozilla/5.0 (X11; GNU/Linux) AppleWebKit/537.36 (KHTML, like Gecko) Chromium/79.0.3945.130 Chrome/79.0.3945.130 Safari/537.36 Tesla/2020.12.1-299292ad7782",
    "human",
  ],
  ["PlayStation 4", "Mozilla/5.0 (PlayStation 4 5.55) AppleWebKit/601.2 (KHTML, like Gecko)", "human"],
];

describe("classifyUserAgent", () => {
  test("the table holds at least 100 labelled user agents", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(100);
  });

  for (const [label, ua, expected] of CASES) {
    test(label, () => {
      const result = classifyUserAgent(ua);
      if (expected === "human") {
        expect(result).toEqual({ kind: "human" });
        return;
      }
      expect(result.kind).toBe("bot");
      if (result.kind !== "bot") return;
      expect(result.bot.name).toBe(expected.name);
      if (expected.purpose) expect(result.bot.purpose).toBe(expected.purpose);
      if (expected.engine !== undefined) expect(result.bot.engine).toBe(expected.engine);
      if (expected.isAIBot !== undefined) expect(result.bot.isAIBot).toBe(expected.isAIBot);
    });
  }

  test("every user-agent bot in our table is exercised above", () => {
    const covered = new Set(CASES.flatMap(([, , e]) => (e === "human" ? [] : [e.name])));
    // The agents added from the public AI-agent list are exercised in ai-agents-list.test.ts.
    const own = BOT_DEFINITIONS.filter((d) => d.note !== "from the ai.robots.txt list");
    const missing = own.filter((d) => d.userAgent && !covered.has(d.name)).map((d) => d.name);
    expect(missing).toEqual(["MistralAI-Index", "MistralAI-Training"]); // documented tokens, no sample seen
  });

  test("Google's special-case crawlers are verified by Google's special-crawler ranges", () => {
    // 66.249.87.0/27 is in special-crawlers.json; 66.249.66.1 is a common crawler's (Googlebot's) address.
    for (const name of ["Mediapartners-Google", "APIs-Google", "Google-Safety", "AdsBot-Google"]) {
      expect(verifyBotIp(name, "66.249.87.5")).toBe("verified");
      // The committed list is a seed: an address outside it proves nothing until the whole list is fetched.
      expect(verifyBotIp(name, "8.8.8.8")).toBe("unknown");
      installRangeFeeds(committedListsAsWhole());
      try {
        expect(verifyBotIp(name, "8.8.8.8")).toBe("unverified");
      } finally {
        installRangeFeeds({});
      }
    }
  });

  test("a GPTBot claim is classified by its user agent and verified by its address", () => {
    const ua =
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
    const result = classifyUserAgent(ua);
    expect(result.kind === "bot" && result.bot.name).toBe("GPTBot");
    expect(verifyBotIp("GPTBot", "20.171.206.10")).toBe("verified");
    expect(verifyBotIp("GPTBot", "8.8.8.8")).toBe("unknown");
    installRangeFeeds(committedListsAsWhole());
    try {
      expect(verifyBotIp("GPTBot", "8.8.8.8")).toBe("unverified");
    } finally {
      installRangeFeeds({});
    }
  });

  test("matching ignores case, as servers do not normalise user agents", () => {
    const result = classifyUserAgent("mozilla/5.0 (compatible; GPTBOT/1.1)");
    expect(result.kind === "bot" && result.bot.name).toBe("GPTBot");
  });

  test("results are cached and shared", () => {
    clearClassificationCache();
    const ua = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
    const first = classifyUserAgent(ua);
    expect(classifyUserAgent(ua)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  test("null and undefined are treated like an empty user agent", () => {
    expect(classifyUserAgent(null)).toEqual(classifyUserAgent(""));
    expect(classifyUserAgent(undefined)).toEqual(classifyUserAgent(""));
  });

  test("an absurdly long user agent is classified from its first kilobyte", () => {
    const ua = `Mozilla/5.0 (compatible; GPTBot/1.1) ${"x".repeat(100_000)}`;
    const result = classifyUserAgent(ua);
    expect(result.kind === "bot" && result.bot.name).toBe("GPTBot");
  });
});
