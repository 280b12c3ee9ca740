import { describe, expect, test } from "vitest";
import { AI_AGENT_LIST } from "../catalog/ai-agents-list";
import { engineFromReferrer, engineFromUtm } from "../catalog/ai-referrers";
import { AI_ENGINES } from "../catalog/bots";
import { classifyUserAgent } from "../catalog/classify";
import { analyzeVisit } from "./analyze-visit";
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

describe("engineFromReferrer and engineFromUtm", () => {
  test("subdomains count, other apps do not", () => {
    expect(engineFromReferrer("https://labs.perplexity.ai/")).toBe("Perplexity");
    expect(engineFromReferrer("android-app://com.google.android.gm/")).toBeNull();
    expect(engineFromReferrer(null)).toBeNull();
    expect(engineFromUtm("/no-query")).toBeNull();
    expect(engineFromUtm("/?utm_source=https%3A%2F%2Fchatgpt.com")).toBe("ChatGPT");
  });
});

describe("analyzeVisit", () => {
  test("classifies, verifies and detects a citation in one pass", () => {
    const visit = analyzeVisit({ path: "/", userAgent: CHATGPT_USER, ip: "23.98.142.180" });
    expect(visit.classification.kind === "bot" && visit.classification.bot.name).toBe("ChatGPT-User");
    expect(visit.verification).toBe("verified");
    expect(visit.citation).toEqual({ engine: "ChatGPT", reason: "user_fetch" });
  });

  test("ignores verification for citations unless told to trust it", () => {
    const spoofed = { path: "/", userAgent: CHATGPT_USER, ip: "8.8.8.8" };
    expect(analyzeVisit(spoofed).verification).toBe("unverified");
    expect(analyzeVisit(spoofed).citation).not.toBeNull();
    expect(analyzeVisit(spoofed, { trustIpVerification: true }).citation).toBeNull();
  });

  test("a human visit has no verification", () => {
    const visit = analyzeVisit({ path: "/?utm_source=chatgpt.com", userAgent: CHROME, ip: "8.8.8.8" });
    expect(visit.verification).toBe("unknown");
    expect(visit.citation).toEqual({ engine: "ChatGPT", reason: "utm" });
  });
});

describe("every user-triggered assistant of the AI-agent list", () => {
  // The list's "AI Assistants": each fetch is a citation under the assistant's own name. Meta-WebIndexer is the
  // one the list files there that our table knows as Meta's search indexer (it crawls, nobody asked it).
  const assistants = Object.entries(AI_AGENT_LIST)
    .filter(([name, entry]) => entry.function === "AI Assistants" && name.toLowerCase() !== "meta-webindexer")
    .map(([name]) => name);

  test("the list holds them all", () => {
    expect(assistants).toHaveLength(27);
  });

  test.each(assistants)("%s fetching a page is a citation under its assistant's name", (name) => {
    const userAgent = `Mozilla/5.0 (compatible; ${name}/1.0; +https://example.org/bot)`;
    const citation = detectCitation({ path: "/pricing?ref=1", userAgent });
    expect(citation?.reason).toBe("user_fetch");
    const classification = classifyUserAgent(userAgent);
    expect(classification.kind === "bot" && classification.bot.name.toLowerCase()).toBe(name.toLowerCase());
    expect(AI_ENGINES).toContain(citation?.engine);
  });

  test("named as people know them, the four engines unchanged", () => {
    const engineOf = (name: string) =>
      detectCitation({ path: "/", userAgent: `Mozilla/5.0 (compatible; ${name}/1.0)` })?.engine;
    expect(engineOf("ChatGPT-User")).toBe("ChatGPT");
    expect(engineOf("Claude-User")).toBe("Claude");
    expect(engineOf("Perplexity-User")).toBe("Perplexity");
    expect(engineOf("GoogleAgent-URLContext")).toBe("Gemini");
    expect(engineOf("MistralAI-User")).toBe("Mistral");
    expect(engineOf("Meta-ExternalFetcher")).toBe("Meta AI");
    expect(engineOf("DuckAssistBot")).toBe("DuckAssist");
    expect(engineOf("Google-NotebookLM")).toBe("NotebookLM");
    expect(engineOf("LinerBot")).toBe("Liner");
    expect(engineOf("AI2Bot-DeepResearchEval")).toBe("Ai2");
    expect(engineOf("amazon-QBusiness")).toBe("Amazon Q Business");
    // Crawlers stay crawlers.
    expect(engineOf("Meta-WebIndexer")).toBeUndefined();
    expect(engineOf("AI2Bot")).toBeUndefined();
  });
});
