import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import crawlerUserAgents from "crawler-user-agents";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  AI_AGENT_LIST,
  agentBaseName,
  agentPattern,
  operatorFromText,
  purposeFromFunction,
} from "./ai-agents-list";
import { parseAgentList, refreshAgentList } from "./ai-agents-refresh";
import { classifyUserAgent } from "./classify";

// The vendored ai.robots.txt list (MIT; data/README.md). Every agent in it is an AI bot for us, except the
// few README.md explains (our own table knows them as search, research or link-preview crawlers, or they are
// robots.txt-only switches).
const NOT_AI = new Set([
  "Applebot",
  "Applebot-Extended",
  "Google-Extended",
  "GoogleOther",
  "GoogleOther-Image",
  "GoogleOther-Video",
  "facebookexternalhit",
  "PetalBot",
]);
const AI_PURPOSES = ["training", "ai_search", "ai_user_fetch", "ai_assistant", "agentic_browser"];

const names = Object.keys(AI_AGENT_LIST);

describe("the AI-agent list", () => {
  test("is the vendored snapshot (166 agents)", () => {
    expect(names.length).toBeGreaterThanOrEqual(160);
    expect(names).toContain("GoogleAgent-Mariner");
  });

  test.each(names.filter((n) => !NOT_AI.has(n)))("%s is recognised as AI, with a purpose", (name) => {
    const ua = `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${agentBaseName(name)}/1.2; +https://example.com/bot) Chrome/120.0 Safari/537.36`;
    const result = classifyUserAgent(ua);
    expect(result.kind).toBe("bot");
    if (result.kind !== "bot") return;
    expect(result.bot.isAIBot).toBe(true);
    expect(AI_PURPOSES).toContain(result.bot.purpose);
  });

  test("operators: the list's or ours, unknown for only a few undocumented agents", () => {
    const operators = names.map((n) => {
      const r = classifyUserAgent(`Mozilla/5.0 (compatible; ${agentBaseName(n)}/1.0)`);
      return r.kind === "bot" ? r.bot.operator : "human";
    });
    // 15 of 166 today (MyCentralAIScraperBot, KunatoCrawler, Spider, LCC…: nobody documents who runs them).
    expect(operators.filter((o) => o === null).length).toBeLessThanOrEqual(15);
    expect(operators).not.toContain("human");
  });

  test("the agents the issue named are found, in any capitalisation, with operator and purpose", () => {
    const cases: [string, string, string, string][] = [
      ["Mozilla/5.0 (compatible; Kimi-User/1.0)", "Kimi-User", "Moonshot AI", "ai_user_fetch"],
      ["Mozilla/5.0 (compatible; GoogleAgent-Mariner)", "GoogleAgent-Mariner", "Google", "agentic_browser"],
      ["Mozilla/5.0 (compatible; YandexAdditional/3.0)", "YandexAdditional", "Yandex", "training"],
      ["Mozilla/5.0 (compatible; DeepseekBot/1.0)", "DeepSeekBot", "DeepSeek", "training"],
      ["Mozilla/5.0 (compatible; deepseekbot/1.0)", "DeepSeekBot", "DeepSeek", "training"],
      ["Mozilla/5.0 ChatGPT Agent", "ChatGPT Agent", "OpenAI", "agentic_browser"],
      ["Mozilla/5.0 (compatible; TongyiBot/1.0)", "TongyiBot", "Alibaba", "ai_assistant"],
    ];
    for (const [ua, name, operator, purpose] of cases) {
      const result = classifyUserAgent(ua);
      expect(result.kind === "bot" && result.bot, ua).toMatchObject({
        name,
        operator,
        purpose,
        isAIBot: true,
      });
    }
  });

  test("common words of the list only match as a product token", () => {
    // VS Code's own "Code/1.x" in an Electron UA is a product token, but "code" inside a word or path is not.
    expect(agentPattern("Code").test("Mozilla/5.0 Code/1.85.0 Chrome/118")).toBe(true);
    expect(agentPattern("Code").test("Mozilla/5.0 (compatible; MyBot; +https://x.dev/code/bot)")).toBe(false);
    expect(agentPattern("Spider").test("Baiduspider/2.0")).toBe(false);
    expect(agentPattern("DeepSeekBot").test("NotDeepSeekBotX")).toBe(false);
  });

  // Held-out style figure: real user agents of the crawler-user-agents collection (MIT) naming a list agent.
  test("real user agents naming a list agent are AI bots (measured)", () => {
    const patterns = names.filter((n) => !NOT_AI.has(n)).map((n) => agentPattern(agentBaseName(n)));
    let seen = 0;
    const missed: string[] = [];
    for (const entry of crawlerUserAgents as readonly { instances: string[] }[]) {
      for (const ua of entry.instances) {
        if (!patterns.some((p) => p.test(ua)) || /Screaming Frog/.test(ua)) continue;
        seen++;
        const result = classifyUserAgent(ua);
        if (result.kind !== "bot" || !result.bot.isAIBot) missed.push(ua);
      }
    }
    expect(seen).toBeGreaterThan(100);
    expect(missed).toEqual([]);
  });
});

describe("reading the list's free text", () => {
  test.each([
    ["[OpenAI](https://openai.com)", "OpenAI"],
    ["Kagi that fetches web content to answer user queries", "Kagi"],
    ["Unclear at this time.", null],
    ["the Chinese company Huawei", "Chinese company Huawei"],
    ["https://brightdata.com/brightbot", null],
  ])("operator of %j", (text, operator) => {
    expect(operatorFromText(text)).toBe(operator);
  });

  test.each([
    ["X", "AI Agents", "agentic_browser"],
    ["Foo-User", "AI Assistants", "ai_user_fetch"],
    ["FooBot", "AI Assistants", "ai_assistant"],
    ["FooBot", "AI Search Crawlers", "ai_search"],
    ["FooBot", "AI Data Scrapers", "training"],
    ["FooCode", "AI Coding Agents", "ai_user_fetch"],
  ])("purpose of %s (%s)", (name, fn, purpose) => {
    expect(purposeFromFunction(name, fn)).toBe(purpose);
  });
});

describe("npm run tracking:refresh-agents", () => {
  let server: Server;
  let base = "";
  let dir = "";
  const bigList = Object.fromEntries(
    Array.from({ length: 60 }, (_, i) => [`Agent${i}`, { operator: "X", function: "AI Assistants" }]),
  );

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "agents-"));
    server = createServer((req, res) => {
      if (req.url === "/ok.json") res.end(JSON.stringify(bigList));
      else if (req.url === "/small.json") res.end(JSON.stringify({ A: {} }));
      else if (req.url === "/html") res.end("<html>");
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("writes a well-formed list", async () => {
    const outcome = await refreshAgentList({ dataDir: dir, url: `${base}/ok.json` });
    expect(outcome.agents).toBe(60);
    expect(JSON.parse(await readFile(outcome.file, "utf8"))).toEqual(bigList);
  });

  test.each([
    ["/small.json", /only 1 agents/],
    ["/html", /not JSON/],
    ["/missing", /HTTP 404/],
  ])("refuses %s and keeps the previous file", async (urlPath, message) => {
    await expect(refreshAgentList({ dataDir: dir, url: `${base}${urlPath}` })).rejects.toThrow(message);
    expect(JSON.parse(await readFile(path.join(dir, "ai-robots-txt.json"), "utf8"))).toEqual(bigList);
  });

  test("rejects entries of the wrong shape", () => {
    expect(() => parseAgentList([])).toThrow(/not a JSON object/);
    expect(() => parseAgentList({ ...bigList, Bad: { operator: 3 } })).toThrow(/operator is not text/);
  });
});
