import { describe, expect, test } from "vitest";
import { committedListsAsWhole } from "@/test/support/range-feeds";
import { AI_AGENT_LIST } from "../catalog/ai-agents-list";
import { engineFromReferrer, engineFromUtm } from "../catalog/ai-referrers";
import { AI_ENGINES } from "../catalog/bots";
import { classifyUserAgent } from "../catalog/classify";
import { installRangeFeeds } from "../catalog/ip-ranges/verify";
import { analyzeVisit } from "./analyze-visit";
import { detectCitation } from "./detect-citation";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const _SAFARI_IOS =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const CHATGPT_USER =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
const _GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
const _GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

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
    installRangeFeeds(committedListsAsWhole());
    try {
      expect(analyzeVisit(spoofed).verification).toBe("unverified");
      expect(analyzeVisit(spoofed).citation).not.toBeNull();
      expect(analyzeVisit(spoofed, { trustIpVerification: true }).citation).toBeNull();
    } finally {
      installRangeFeeds({});
    }
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
