import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import crawlerUserAgents from "crawler-user-agents";
import { isbot } from "isbot";
import { describe, expect, test } from "vitest";
import { engineFromReferrer } from "@/lib/tracking/catalog/ai-referrers";
import { classifyUserAgent } from "@/lib/tracking/catalog/classify";
import { snippetReferrerPattern, snippetSendsUserAgent } from "@/lib/tracking/catalog/snippet-filters";

// Held-out style measurements on public corpora (sources and licences: fixtures/README.md).
const fixtures = path.join(import.meta.dirname, "fixtures");
const browsers = gunzipSync(readFileSync(path.join(fixtures, "browser-user-agents.txt.gz")))
  .toString("utf8")
  .split("\n")
  .filter(Boolean);
const botNames: [string, string][] = JSON.parse(readFileSync(path.join(fixtures, "bot-names.json"), "utf8"));
const deviceDetectorBots: [string, string][] = JSON.parse(
  gunzipSync(readFileSync(path.join(fixtures, "device-detector-bots.json.gz"))).toString("utf8"),
);

describe("real browsers are people", { timeout: 120_000 }, () => {
  test("the corpus holds at least 20,000 distinct browser user agents", () => {
    expect(browsers.length).toBeGreaterThanOrEqual(20_000);
    expect(new Set(browsers).size).toBe(browsers.length);
  });

  test("at most 0.1% are taken for bots (13 of 34,156 when measured)", () => {
    const flagged = browsers.filter((ua) => classifyUserAgent(ua).kind === "bot");
    console.log(`browser false positives: ${flagged.length}/${browsers.length}`);
    expect(flagged.length / browsers.length).toBeLessThanOrEqual(0.001);
  });

  test("isbot is one signal, not the verdict: it alone flags ten times more of them", () => {
    const byIsbot = browsers.filter((ua) => isbot(ua)).length;
    const byUs = browsers.filter((ua) => classifyUserAgent(ua).kind === "bot").length;
    expect(byIsbot).toBeGreaterThan(10 * byUs);
  });

  test.each([
    "Mozilla/5.0 (Linux; Android 7.0; M bot 54) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.96 Mobile Safari/537.36",
    "Mozilla/5.0 (Linux; Android 8.1.0; XBot Junior) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.101 Mobile Safari/537.36",
    "Mozilla/5.0 (Linux; Android 6.0.1; OPPO R9s Plus Build/MMB29M; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/68.0.3440.106 Mobile Safari/537.36 AWP/2.0 SogouMSE,SogouMobileBrowser/5.",
    "Opera/9.80 (Linux armv6l; U; NETRANGEMMH;HbbTV/1.1.1;CE-HTML/1.0;TCL LF1V349; en) Presto/2.8.115 Version/11.10",
  ])("a browser isbot alone would flag: %s", (ua) => {
    expect(classifyUserAgent(ua).kind).toBe("human");
  });

  test.each([
    "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)",
    "Mozilla/5.0 (compatible; Google-Youtube-Links)",
    "RamblerMail/6.0 (incompatible; ImageProxy/6.0)",
    "findlinks/2.0 (+http://wortschatz.uni-leipzig.de/findlinks/)",
  ])("a bot with no bot word isbot knows stays a bot: %s", (ua) => {
    expect(classifyUserAgent(ua).kind).toBe("bot");
  });
});

describe("real bots get their own name", { timeout: 120_000 }, () => {
  test("the table holds at least 1,000 real bot user agents", () => {
    expect(botNames.length).toBeGreaterThanOrEqual(1_000);
  });

  test("every real bot user agent of the crawler list is a bot (measured: 2,111 of 2,118)", () => {
    const all = (crawlerUserAgents as readonly { instances: string[] }[]).flatMap((e) => e.instances);
    const bots = all.filter((ua) => classifyUserAgent(ua).kind === "bot").length;
    console.log(`crawler-user-agents instances recognised as bots: ${bots}/${all.length}`);
    expect(bots / all.length).toBeGreaterThanOrEqual(0.995);
  });

  test("each gets the expected normalised name", () => {
    const wrong = botNames
      .map(([ua, expected]) => {
        const result = classifyUserAgent(ua);
        const name = result.kind === "bot" ? result.bot.name : "(human)";
        return name === expected ? null : { ua, expected, name };
      })
      .filter(Boolean);
    expect(wrong).toEqual([]);
  });

  test("no junk names: no URL scheme, browser or platform word, and a name the user agent itself carries", () => {
    const junk = botNames.filter(
      ([ua, name]) =>
        /^(https?|Trident|Mozilla|compatible|MSIE|Windows|Linux|\d[\d.]*)$/i.test(name) ||
        (name !== "Unknown bot" &&
          !name.endsWith("(spoofed)") &&
          !ua
            .toLowerCase()
            .replace(/[\s_-]/g, "")
            .includes(name.toLowerCase().replace(/[\s_-]/g, ""))),
    );
    // Our table's names: Googlebot-Smartphone (sent as Googlebot), AhrefsBot (AhrefsSiteAudit), Perplexity-User.
    expect(junk.length).toBeLessThanOrEqual(10);
    expect(botNames.filter(([, name]) => name === "Unknown bot").length).toBeLessThanOrEqual(2);
  });

  test.each([
    ["Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0); 360Spider", "360Spider"],
    ["360Spider-Image", "360Spider-Image"],
    ["AmorankSpider/0.1; +http://amorank.com/webcrawler.html", "AmorankSpider"],
    ["Mozilla/5.0 (compatible; Dataprovider/6.92; +https://www.dataprovider.com/)", "Dataprovider"],
    ["Bloglovin/1.0 (http://www.bloglovin.com; 1 subscribers)", "Bloglovin"],
    ["Mnogosearch-3.1.21", "Mnogosearch"],
    ["Mozilla/5.0 (compatible; +http://tweetedtimes.com)", "tweetedtimes.com"],
  ])("%s -> %s", (ua, name) => {
    const result = classifyUserAgent(ua);
    expect(result.kind === "bot" && result.bot.name).toBe(name);
  });
});

describe("the device-detection bot list", { timeout: 120_000 }, () => {
  test("at least 99.5% of its bot user agents are bots (1,338 of 1,341 when measured)", () => {
    expect(deviceDetectorBots.length).toBeGreaterThanOrEqual(1_300);
    const missed = deviceDetectorBots.filter(([ua]) => classifyUserAgent(ua).kind !== "bot");
    console.log(
      `device-detector bots recognised: ${deviceDetectorBots.length - missed.length}/${deviceDetectorBots.length}`,
    );
    expect(missed.length / deviceDetectorBots.length).toBeLessThanOrEqual(0.005);
  });

  test("its AI crawlers, scrapers and assistants are AI bots, but for the names no AI vendor claims", () => {
    const notAi = deviceDetectorBots
      .filter(([, category]) => category.startsWith("AI "))
      .map(([ua]) => classifyUserAgent(ua))
      .flatMap((c) => (c.kind === "bot" && c.bot.isAIBot ? [] : [c.kind === "bot" ? c.bot.name : "(human)"]));
    // Bots all, not counted as AI: names of AI vendors that no vendor documents (Anthropic-Claude, Bard-AI,
    // Character-AI, ChatGPT-Browser, Cohere-Command, Gemini-AI: crediting an engine with them would invent
    // citations); Apple's search crawler, whose AI switch is the Applebot-Extended token; the two robots.txt-only
    // tokens, which a crawler sending them borrows; developer and research tools with no answer engine
    // (GitHubCopilotChat, Google-Pinpoint); Integral Ad Science's ad-verification crawlers.
    expect([...new Set(notAi)].sort()).toEqual([
      "Anthropic-Claude",
      "Applebot",
      "Applebot-Extended (spoofed)",
      "Bard-AI",
      "Character-AI",
      "ChatGPT-Browser",
      "Cohere-Command",
      "Gemini-AI",
      "GitHubCopilotChat",
      "Google-Extended (spoofed)",
      "Google-Pinpoint",
      "IAS",
      "ias_crawler",
    ]);
  });
});

describe("the Cloudflare Worker snippet's patterns", { timeout: 120_000 }, () => {
  const aiReferrer = new RegExp(snippetReferrerPattern(), "i");

  test("send every AI agent of the corpora the service recognises (266) and nearly every other bot (3,332 of 3,448)", () => {
    const bots = [...botNames.map(([ua]) => ua), ...deviceDetectorBots.map(([ua]) => ua)].flatMap((ua) => {
      const c = classifyUserAgent(ua);
      return c.kind === "bot" ? [{ ua, ai: c.bot.isAIBot }] : [];
    });
    const ai = bots.filter((b) => b.ai);
    const aiSent = ai.filter((b) => snippetSendsUserAgent(b.ua)).length;
    const botsSent = bots.filter((b) => snippetSendsUserAgent(b.ua)).length;
    console.log(`worker pattern: AI agents ${aiSent}/${ai.length}, bots ${botsSent}/${bots.length}`);
    expect(ai.length).toBeGreaterThan(200);
    expect(ai.filter((b) => !snippetSendsUserAgent(b.ua)).map((b) => b.ua)).toEqual([]);
    // The bots left are programs that wear a browser's user agent and add a name the crawler list knows
    // ("… Chrome/138 Safari/537.36 DatadogSynthetics"): the service counts them, the Worker cannot tell them apart
    // from people without that list.
    expect(botsSent / bots.length).toBeGreaterThanOrEqual(0.95);
  });

  test("send at most 0.5% of people's browsers (123 of 34,156 when measured)", () => {
    const sent = browsers.filter((ua) => snippetSendsUserAgent(ua)).length;
    expect(sent / browsers.length).toBeLessThanOrEqual(0.005);
  });

  test("send a script that gives no user agent: the service counts it as a bot", () => {
    expect(snippetSendsUserAgent("")).toBe(true);
    expect(classifyUserAgent("").kind).toBe("bot");
  });

  test("a referrer is sent exactly when the service counts it as an AI answer's, or an app's", () => {
    const cases = [
      "https://chatgpt.com/",
      "https://www.perplexity.ai/search/x",
      "https://chat.mistral.ai/chat/1",
      "https://www.bing.com/chat?q=x",
      "https://x.com/i/grok?conversation=1",
      "android-app://com.openai.chatgpt/",
      "https://www.google.com/",
      "https://www.bing.com/search?q=x",
      "https://x.com/someone",
      "https://notchatgpt.com/",
      "https://chatgpt.com.evil.example/",
    ];
    for (const referrer of cases) {
      expect([referrer, aiReferrer.test(referrer)]).toEqual([
        referrer,
        engineFromReferrer(referrer) !== null,
      ]);
    }
  });
});
