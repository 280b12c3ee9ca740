import { describe, expect, test } from "vitest";
import { AI_REFERRER_HOSTS, engineFromReferrer, engineFromUtm } from "./ai-referrers";
import aiAssistants from "./data/ai-assistants.json";

// The public AI-assistant referrer list (matomo-org/searchengine-and-social-list, AIAssistants.yml, CC0),
// vendored in data/ai-assistants.json: every host in it is an AI referral.
const listed = Object.entries(aiAssistants.assistants).flatMap(([name, hosts]) =>
  hosts.map((h) => [name, h]),
);

describe("AI referrers", () => {
  test("the vendored list holds the 25 hosts of its snapshot", () => {
    expect(listed.length).toBe(25);
  });

  test.each(listed)("%s: https://%s/ is an AI referral", (_name, host) => {
    expect(engineFromReferrer(`https://${host}/c/abc`)).not.toBeNull();
    expect(engineFromReferrer(`https://${host}`)).not.toBeNull();
  });

  test.each([
    ["https://chatgpt.com/", "ChatGPT"],
    ["https://www.perplexity.ai/search/x", "Perplexity"],
    ["https://claude.ai/chat/1", "Claude"],
    ["https://gemini.google.com/app", "Gemini"],
    ["https://copilot.microsoft.com/", "Copilot"],
    ["https://www.bing.com/chat?q=x", "Copilot"],
    ["https://chat.deepseek.com/a/chat/s/1", "DeepSeek"],
    ["https://grok.com/chat/1", "Grok"],
    ["https://x.com/i/grok?conversation=1", "Grok"],
    ["https://www.meta.ai/", "Meta AI"],
    ["https://chat.mistral.ai/chat/1", "Mistral"],
    ["https://duck.ai/", "Duck.ai"],
    ["https://duckduckgo.com/chat", "Duck.ai"],
    ["https://you.com/search?q=x", "You.com"],
    ["https://www.phind.com/search?q=x", "Phind"],
    ["https://kagi.com/assistant/1", "Kagi"],
    ["https://www.kimi.com/chat/1", "Kimi"],
    ["https://kimi.moonshot.cn/chat/1", "Kimi"],
    ["https://chat.qwen.ai/c/1", "Qwen"],
    ["https://www.doubao.com/chat/1", "Doubao"],
    ["https://yiyan.baidu.com/", "ERNIE"],
    ["android-app://com.openai.chatgpt/", "ChatGPT"],
    ["android-app://com.deepseek.chat/", "DeepSeek"],
  ])("%s -> %s", (referrer, engine) => {
    expect(engineFromReferrer(referrer)).toBe(engine);
  });

  test.each([
    "https://x.com/elonmusk",
    "https://www.bing.com/search?q=x",
    "https://kagi.com/search?q=x",
    "https://duckduckgo.com/?q=x",
    "https://www.google.com/",
    "https://notchatgpt.com/",
    "-",
    "",
  ])("%s is not an AI referral", (referrer) => {
    expect(engineFromReferrer(referrer)).toBeNull();
  });

  test.each([
    ["/page?utm_source=chatgpt.com", "ChatGPT"],
    ["/page?utm_source=perplexity", "Perplexity"],
    ["/page?utm_source=duck.ai", "Duck.ai"],
    ["/page?utm_source=kimi", "Kimi"],
    ["/page?utm_source=newsletter", null],
  ])("utm_source %s -> %s", (path, engine) => {
    expect(engineFromUtm(path)).toBe(engine);
  });

  test("path rules are tried before host rules", () => {
    const first = AI_REFERRER_HOSTS.findIndex((r) => !r.pathPrefix);
    expect(AI_REFERRER_HOSTS.slice(first).every((r) => !r.pathPrefix)).toBe(true);
  });
});
