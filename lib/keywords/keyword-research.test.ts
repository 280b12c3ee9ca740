import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGuardedFetch } from "@/lib/fetch/guarded-fetch";
import { type FakeDataForSeo, startFakeDataForSeo } from "@/test/fakes/dataforseo";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { buildFixtureSite } from "@/test/fixtures/generated-site";
import { siteRoutes, startSiteFixture } from "@/test/fixtures/site/server";
import {
  keywordResearchAvailability,
  keywordResearchInput,
  keywordResearchResult,
  runKeywordResearch,
} from ".";

const fetch = createGuardedFetch({ allowPrivateTargets: "loopback" });
const signal = new AbortController().signal;
const noProvider = {};

let site: FixtureServer;
let coffee: FixtureServer;
let fake: FakeDataForSeo;

beforeAll(async () => {
  site = await startSiteFixture();
  // The coffee pages of the planted site on their own, as a site of their own.
  const routes = siteRoutes();
  coffee = await startFixtureServer({
    routes: {
      "/": routes["/faq.html"]!,
      "/espresso": routes["/thin-faq.html"]!,
      "/robots.txt": (req, res) =>
        void res.end(`User-agent: *\nAllow: /\nSitemap: http://${req.headers.host}/sitemap.xml\n`),
      "/sitemap.xml": (req, res) => {
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${req.headers.host}/</loc></url><url><loc>http://${req.headers.host}/espresso</loc></url></urlset>`,
        );
      },
    },
  });
  fake = await startFakeDataForSeo({
    keywords: [
      { keyword: "cold brew", searchVolume: 90500, cpc: 1.1, difficulty: 52, intent: "informational" },
      { keyword: "cold brew coffee", searchVolume: 74000, cpc: 1.2, difficulty: 48, intent: "informational" },
      { keyword: "cold brew maker", searchVolume: 22000, cpc: 0.9, difficulty: 35, intent: "commercial" },
    ],
  });
});
afterAll(async () => {
  await site?.close();
  await coffee?.close();
  await fake?.close();
});

const top = (phrases: { phrase: string }[], n = 10) => phrases.slice(0, n).map((p) => p.phrase.toLowerCase());

describe("keyword research from a URL", () => {
  test("finds what the coffee pages are about, with their questions, and no invented metrics", async () => {
    const r = await runKeywordResearch({ url: `${site.url}/faq.html` }, { signal, fetch, env: noProvider });
    expect(keywordResearchResult.parse(r)).toEqual(r);
    if (r.mode !== "url") throw new Error("url mode expected");
    expect(r.source).toBe("extractive");
    expect(r.metrics).toBeNull();
    expect(r.metricsSource).toBeNull();
    // The phrases a person would name for the page.
    expect(top(r.keyphrases)).toEqual(expect.arrayContaining(["cold brew", "cold brew coffee"]));
    const coldBrew = r.topics.find((t) => t.keyphrases.some((k) => k.toLowerCase() === "cold brew"));
    expect(coldBrew).toBeDefined();
    expect(coldBrew!.pages[0]!.url).toBe(`${site.url}/faq.html`);
    expect(coldBrew!.intent).toBe("informational");
    expect(coldBrew!.questions.map((q) => q.question)).toEqual(
      expect.arrayContaining(["How long should cold brew steep?", "Is cold brew stronger than hot coffee?"]),
    );
    // robots.txt disallows /private for GPTBot only; everything found is from crawled, allowed pages.
    const urls = new Set(r.keyphrases.flatMap((k) => k.pages));
    expect([...urls].every((u) => u.startsWith(site.url))).toBe(true);
    // Pages about HTTP caching are on the same site and form their own topic, not the coffee one.
    expect(coldBrew!.keyphrases.map((k) => k.toLowerCase())).not.toContain("http caching");
  });

  test("a coffee-only site: the keyphrases a person would name are in the top 10", async () => {
    const r = await runKeywordResearch({ url: `${coffee.url}/` }, { signal, fetch, env: noProvider });
    if (r.mode !== "url") throw new Error("url mode expected");
    const best = top(r.keyphrases);
    for (const expected of ["cold brew", "cold brew coffee", "espresso"]) expect(best).toContain(expected);
    expect(r.questions.length).toBeGreaterThanOrEqual(8);
    expect(r.topics[0]!.topic.toLowerCase()).toContain("cold brew");
  });

  test("the generated product site: its subjects, with navigational intent for its own name", async () => {
    const planted = buildFixtureSite({ pages: 30 });
    const server = await startFixtureServer({ routes: planted.routes });
    try {
      const r = await runKeywordResearch({ url: `${server.url}/` }, { signal, fetch, env: noProvider });
      if (r.mode !== "url") throw new Error("url mode expected");
      expect(r.pagesCrawled).toBeLessThanOrEqual(21);
      const phrases = r.keyphrases.map((k) => k.phrase.toLowerCase());
      expect(phrases.slice(0, 25)).toEqual(expect.arrayContaining(["edge functions", "object storage"]));
      const brand = r.topics.find((t) => t.keyphrases.some((k) => k.toLowerCase().includes("northwind")));
      if (brand) expect(brand.intent).toBe("navigational");
    } finally {
      await server.close();
    }
  });

  test("with a provider configured, the top phrases carry its figures", async () => {
    const env = {
      DATAFORSEO_LOGIN: fake.login,
      DATAFORSEO_PASSWORD: fake.password,
      DATAFORSEO_BASE_URL: fake.url,
    };
    const r = await runKeywordResearch({ url: `${coffee.url}/` }, { signal, fetch, env });
    if (r.mode !== "url") throw new Error("url mode expected");
    expect(r.metricsSource).toBe("dataforseo");
    expect(r.metrics?.find((m) => m.keyword === "cold brew")?.searchVolume).toBe(90500);
  });
});

describe("keyword research from seed keywords", () => {
  test("is unavailable without a provider, naming the variables to set", () => {
    const input = keywordResearchInput.parse({ keywords: ["cold brew"] });
    const a = keywordResearchAvailability(input, {});
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.reason).toMatch(/DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD/);
    expect(
      keywordResearchAvailability(keywordResearchInput.parse({ url: "https://example.com/" }), {}),
    ).toEqual({ ok: true });
  });

  test("returns the seeds' figures and related ideas from the provider", async () => {
    const env = {
      DATAFORSEO_LOGIN: fake.login,
      DATAFORSEO_PASSWORD: fake.password,
      DATAFORSEO_BASE_URL: fake.url,
    };
    const r = await runKeywordResearch({ keywords: ["cold brew"] }, { signal, fetch, env });
    if (r.mode !== "keywords") throw new Error("keywords mode expected");
    expect(r.metrics).toEqual([
      expect.objectContaining({ keyword: "cold brew", searchVolume: 90500, difficulty: 52 }),
    ]);
    expect(r.ideas.map((i) => i.keyword)).toEqual(["cold brew coffee", "cold brew maker"]);
    expect(keywordResearchResult.parse(r)).toEqual(r);
  });

  const bad: [string, unknown][] = [
    ["both url and keywords", { url: "https://example.com/", keywords: ["a"] }],
    ["neither", {}],
    ["11 keywords", { keywords: Array.from({ length: 11 }, (_, i) => `k${i}`) }],
    ["an 81-character keyword", { keywords: ["x".repeat(81)] }],
    ["a non-http url", { url: "ftp://example.com/" }],
  ];
  for (const [name, body] of bad)
    test(`rejects ${name}`, () => expect(keywordResearchInput.safeParse(body).success).toBe(false));
});
