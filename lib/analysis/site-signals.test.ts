import { describe, expect, test } from "vitest";
import { parseLlmsTxt } from "@/lib/seo/llms-txt";
import { checkBotAccess, createRobotsForMode, parseRobotsTxt } from "@/lib/seo/robots";
import type { SitemapReport } from "@/lib/seo/sitemap";
import { analyzeHttp } from "./http";
import {
  checkAiBotAccess,
  checkLlmsTxt,
  checkRobotsTxt,
  checkSearchBotAccess,
  checkSitemap,
} from "./site-signals";

const ROBOTS =
  "User-agent: GPTBot\nDisallow: /private\n\nUser-agent: PerplexityBot\nDisallow: /no-ai\n\nUser-agent: *\nAllow: /\n";

describe("robots.txt", () => {
  const fetched = (text: string | null, status: number | null) => ({
    url: "https://example.com/robots.txt",
    status,
    robots:
      text === null
        ? createRobotsForMode(status && status < 500 ? "allow-all" : "disallow-all")
        : parseRobotsTxt(text),
  });

  test("present and clean passes; absent warns; unreachable fails", () => {
    expect(checkRobotsTxt(fetched(ROBOTS, 200)).status).toBe("pass");
    expect(checkRobotsTxt(fetched(null, 404)).status).toBe("warn");
    expect(checkRobotsTxt(fetched(null, 503)).status).toBe("fail");
  });

  test("lines the parser could not read make it a warning with the line numbers", () => {
    const check = checkRobotsTxt(fetched("User-agent: *\nDisallow /x\nSitemap: not a url\n", 200));
    expect(check.status).toBe("warn");
    expect(check.evidence.slice(1).every((e) => /^line \d+:/.test(e))).toBe(true);
  });
});

test("AI usage preferences and other crawler records are shown, not counted as problems", () => {
  const text = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\nHost: example.com\n";
  const check = checkRobotsTxt({
    url: "https://example.com/robots.txt",
    status: 200,
    robots: parseRobotsTxt(text),
  });
  expect(check.status).toBe("pass");
  expect(check.evidence.slice(1)).toEqual([
    "line 2: content-signal: search=yes, ai-train=no (not a crawl rule)",
    "line 4: host: example.com (not a crawl rule)",
  ]);
  const noindex = checkRobotsTxt({
    url: "https://example.com/robots.txt",
    status: 200,
    robots: parseRobotsTxt("User-agent: *\nNoindex: /private\n"),
  });
  expect(noindex.status).toBe("warn");
  expect(noindex.evidence[1]).toMatch(/^line 2: "noindex" is not read in robots.txt/);
});

describe("bot access", () => {
  const robots = parseRobotsTxt(ROBOTS);

  test("a public page is open to every AI and search bot", () => {
    const bots = checkBotAccess(robots, "https://example.com/guide");
    expect(checkAiBotAccess(bots).status).toBe("pass");
    expect(checkSearchBotAccess(bots).status).toBe("pass");
  });

  test("blocking only a training crawler is a warning, naming it and the rule", () => {
    const check = checkAiBotAccess(checkBotAccess(robots, "https://example.com/private/page"));
    expect(check.status).toBe("warn");
    expect(check.evidence).toEqual(['GPTBot (OpenAI, training): blocked by line 2 "Disallow: /private"']);
  });

  test("blocking an answer engine fails", () => {
    const check = checkAiBotAccess(checkBotAccess(robots, "https://example.com/no-ai/x"));
    expect(check.status).toBe("fail");
    expect(check.message).toMatch(/PerplexityBot/);
  });

  test("blocking Googlebot fails the search check; a minor engine only warns", () => {
    const google = parseRobotsTxt("User-agent: Googlebot\nDisallow: /\n");
    expect(checkSearchBotAccess(checkBotAccess(google, "https://example.com/")).status).toBe("fail");
    const yandex = parseRobotsTxt("User-agent: YandexBot\nDisallow: /\n");
    expect(checkSearchBotAccess(checkBotAccess(yandex, "https://example.com/")).status).toBe("warn");
  });
});

describe("sitemap", () => {
  const report = (kind: "urlset" | "unreachable", urls: string[]): SitemapReport => ({
    sources: [
      {
        url: "https://example.com/sitemap.xml",
        from: "default",
        status: kind === "urlset" ? 200 : 404,
        kind,
        urlCount: urls.length,
      },
    ],
    urls: urls.map((loc) => ({ loc })),
    issues:
      kind === "urlset"
        ? []
        : [{ sitemap: "https://example.com/sitemap.xml", severity: "error", message: "HTTP 404" }],
    truncated: false,
  });

  test("listed passes, unlisted warns, none found warns", () => {
    expect(checkSitemap(report("urlset", ["https://example.com/a"]), true).status).toBe("pass");
    expect(checkSitemap(report("urlset", ["https://example.com/a"]), false).message).toMatch(/not listed/);
    const none = checkSitemap(report("unreachable", []), false);
    expect(none.status).toBe("warn");
    expect(none.evidence).toContain("https://example.com/sitemap.xml: HTTP 404");
  });
});

describe("llms.txt", () => {
  const url = "https://example.com/llms.txt";

  test("valid passes, absent warns, invalid fails", () => {
    const valid = parseLlmsTxt(
      "# Acme\n\n> Summary.\n\n## Docs\n\n- [Guide](https://example.com/guide): how to\n",
    );
    expect(checkLlmsTxt({ url, status: 200, parsed: valid })).toMatchObject({
      status: "pass",
      message: '/llms.txt is valid: "Acme" with 1 link.',
    });
    expect(checkLlmsTxt({ url, status: 404 }).status).toBe("warn");
    const invalid = parseLlmsTxt("Just text, no title\n");
    expect(checkLlmsTxt({ url, status: 200, parsed: invalid }).status).toBe("fail");
  });
});

describe("http", () => {
  const base = {
    url: "https://example.com/",
    finalUrl: "https://example.com/",
    status: 200,
    redirects: [],
    elapsedMs: 120,
  };
  const statuses = (facts: Parameters<typeof analyzeHttp>[0]) =>
    Object.fromEntries(analyzeHttp(facts).map((c) => [c.id, c.status]));

  test("a direct HTTPS answer passes", () => {
    expect(statuses(base)).toEqual({
      "http.status": "pass",
      "http.https": "pass",
      "http.redirects": "pass",
      "http.response-time": "pass",
    });
  });

  test("plain HTTP fails; chains and temporary redirects warn; slow answers warn or fail", () => {
    expect(statuses({ ...base, finalUrl: "http://example.com/" })["http.https"]).toBe("fail");
    const hop = (status: number) => ({
      url: "http://example.com/",
      status,
      location: "https://example.com/",
    });
    expect(statuses({ ...base, redirects: [hop(301)] })["http.redirects"]).toBe("pass");
    expect(statuses({ ...base, redirects: [hop(302)] })["http.redirects"]).toBe("warn");
    expect(statuses({ ...base, redirects: [hop(301), hop(301)] })["http.redirects"]).toBe("warn");
    expect(statuses({ ...base, elapsedMs: 1500 })["http.response-time"]).toBe("warn");
    expect(statuses({ ...base, elapsedMs: 4000 })["http.response-time"]).toBe("fail");
  });
});
