import { describe, expect, test } from "vitest";
import { detectCitation } from "./detect-citation";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IOS =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const CHATGPT_USER =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

describe("detectCitation", () => {
  const cases: {
    name: string;
    visit: Parameters<typeof detectCitation>[0];
    expected: ReturnType<typeof detectCitation>;
  }[] = [
    // User-triggered fetchers
    {
      name: "ChatGPT-User fetch",
      visit: { path: "/pricing", userAgent: CHATGPT_USER },
      expected: { engine: "ChatGPT", reason: "user_fetch" },
    },
    {
      name: "Perplexity-User fetch",
      visit: {
        path: "/",
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
      },
      expected: { engine: "Perplexity", reason: "user_fetch" },
    },
    {
      name: "Claude-User fetch",
      visit: {
        path: "/docs",
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
      },
      expected: { engine: "Claude", reason: "user_fetch" },
    },
    {
      name: "MistralAI-User fetch",
      visit: {
        path: "/",
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
      },
      expected: { engine: "Mistral", reason: "user_fetch" },
    },
    {
      name: "DuckAssistBot fetch",
      visit: { path: "/", userAgent: "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)" },
      expected: { engine: "DuckAssist", reason: "user_fetch" },
    },
    {
      name: "Meta-ExternalFetcher fetch",
      visit: {
        path: "/",
        userAgent:
          "meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
      },
      expected: { engine: "Meta AI", reason: "user_fetch" },
    },
    // Crawls are not citations, whatever they carry
    { name: "GPTBot training crawl", visit: { path: "/", userAgent: GPTBOT }, expected: null },
    {
      name: "OAI-SearchBot index crawl",
      visit: {
        path: "/",
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
      },
      expected: null,
    },
    {
      name: "a crawler with an AI referrer",
      visit: { path: "/?utm_source=chatgpt.com", userAgent: GOOGLEBOT, referrer: "https://chatgpt.com/" },
      expected: null,
    },
    {
      name: "curl with an AI referrer",
      visit: { path: "/", userAgent: "curl/8.4.0", referrer: "https://chatgpt.com/" },
      expected: null,
    },
    // Human referrals
    {
      name: "chatgpt.com",
      visit: { path: "/", userAgent: CHROME, referrer: "https://chatgpt.com/" },
      expected: { engine: "ChatGPT", reason: "referral" },
    },
    {
      name: "chat.openai.com",
      visit: { path: "/", userAgent: CHROME, referrer: "https://chat.openai.com/c/abc" },
      expected: { engine: "ChatGPT", reason: "referral" },
    },
    {
      name: "perplexity.ai",
      visit: { path: "/", userAgent: SAFARI_IOS, referrer: "https://perplexity.ai/" },
      expected: { engine: "Perplexity", reason: "referral" },
    },
    {
      name: "www.perplexity.ai",
      visit: { path: "/", userAgent: CHROME, referrer: "https://www.perplexity.ai/search/what-is" },
      expected: { engine: "Perplexity", reason: "referral" },
    },
    {
      name: "gemini.google.com",
      visit: { path: "/", userAgent: CHROME, referrer: "https://gemini.google.com/" },
      expected: { engine: "Gemini", reason: "referral" },
    },
    {
      name: "bard.google.com",
      visit: { path: "/", userAgent: CHROME, referrer: "https://bard.google.com/" },
      expected: { engine: "Gemini", reason: "referral" },
    },
    {
      name: "copilot.microsoft.com",
      visit: { path: "/", userAgent: CHROME, referrer: "https://copilot.microsoft.com/" },
      expected: { engine: "Copilot", reason: "referral" },
    },
    {
      name: "Bing chat",
      visit: { path: "/", userAgent: CHROME, referrer: "https://www.bing.com/chat?q=x" },
      expected: { engine: "Copilot", reason: "referral" },
    },
    {
      name: "claude.ai",
      visit: { path: "/", userAgent: CHROME, referrer: "https://claude.ai/" },
      expected: { engine: "Claude", reason: "referral" },
    },
    {
      name: "you.com",
      visit: { path: "/", userAgent: CHROME, referrer: "https://you.com/search?q=x" },
      expected: { engine: "You.com", reason: "referral" },
    },
    {
      name: "chat.mistral.ai",
      visit: { path: "/", userAgent: CHROME, referrer: "https://chat.mistral.ai/chat" },
      expected: { engine: "Mistral", reason: "referral" },
    },
    {
      name: "meta.ai",
      visit: { path: "/", userAgent: CHROME, referrer: "https://www.meta.ai/" },
      expected: { engine: "Meta AI", reason: "referral" },
    },
    {
      name: "bare host referrer",
      visit: { path: "/", userAgent: CHROME, referrer: "chatgpt.com" },
      expected: { engine: "ChatGPT", reason: "referral" },
    },
    {
      name: "ChatGPT Android app",
      visit: { path: "/", userAgent: CHROME, referrer: "android-app://com.openai.chatgpt/" },
      expected: { engine: "ChatGPT", reason: "referral" },
    },
    {
      name: "referral beats utm",
      visit: { path: "/?utm_source=perplexity", userAgent: CHROME, referrer: "https://claude.ai/" },
      expected: { engine: "Claude", reason: "referral" },
    },
    // utm_source
    {
      name: "utm_source=chatgpt.com",
      visit: { path: "/blog/post?utm_source=chatgpt.com", userAgent: CHROME },
      expected: { engine: "ChatGPT", reason: "utm" },
    },
    {
      name: "utm_source=perplexity",
      visit: { path: "/?a=1&utm_source=perplexity&utm_medium=x", userAgent: CHROME },
      expected: { engine: "Perplexity", reason: "utm" },
    },
    {
      name: "utm_source=Claude.AI",
      visit: { path: "/?utm_source=Claude.AI", userAgent: CHROME, referrer: "-" },
      expected: { engine: "Claude", reason: "utm" },
    },
    {
      name: "utm_source=copilot.microsoft.com",
      visit: { path: "/?utm_source=copilot.microsoft.com", userAgent: CHROME },
      expected: { engine: "Copilot", reason: "utm" },
    },
    // Not citations
    {
      name: "Google search referral",
      visit: { path: "/", userAgent: CHROME, referrer: "https://www.google.com/" },
      expected: null,
    },
    {
      name: "Bing search referral",
      visit: { path: "/", userAgent: CHROME, referrer: "https://www.bing.com/search?q=x" },
      expected: null,
    },
    {
      name: "a look-alike host",
      visit: { path: "/", userAgent: CHROME, referrer: "https://notchatgpt.com/" },
      expected: null,
    },
    {
      name: "openai.com itself",
      visit: { path: "/", userAgent: CHROME, referrer: "https://openai.com/blog" },
      expected: null,
    },
    {
      name: "utm_source in the fragment only",
      visit: { path: "/#utm_source=chatgpt.com", userAgent: CHROME },
      expected: null,
    },
    {
      name: "other utm_source",
      visit: { path: "/?utm_source=newsletter", userAgent: CHROME },
      expected: null,
    },
    { name: "direct visit", visit: { path: "/", userAgent: CHROME }, expected: null },
    {
      name: "garbage referrer",
      visit: { path: "/", userAgent: CHROME, referrer: "http://[::1" },
      expected: null,
    },
  ];

  for (const c of cases) test(c.name, () => expect(detectCitation(c.visit)).toEqual(c.expected));

  test("an unverified user fetcher is not believed when verification is supplied", () => {
    expect(detectCitation({ path: "/", userAgent: CHATGPT_USER, ipVerification: "unverified" })).toBeNull();
    expect(detectCitation({ path: "/", userAgent: CHATGPT_USER, ipVerification: "verified" })).toEqual({
      engine: "ChatGPT",
      reason: "user_fetch",
    });
  });
});
