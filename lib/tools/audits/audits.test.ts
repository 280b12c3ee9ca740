import { beforeAll, describe, expect } from "vitest";
import { createGuardedFetch } from "@/lib/fetch";
import type { FixtureServer } from "@/test/fixture-server";
import { startFixtureServer } from "@/test/fixture-server";
import { toolFailure, toolTest } from "@/test/support/fixtures";
import type { ToolContext } from "../types";
import { audits as definition } from "./definition";
import { runner } from "./run";

const audits = { ...definition, ...runner };

import { type AuditResult, auditResult } from "../shared/audit-schema";

let server: FixtureServer;
let ctx: ToolContext;

const test = toolTest;
test.beforeAll(({ site: _site, ctx: _ctx }) => {
  server = _site;
  ctx = _ctx;
});

async function audit(path: string): Promise<AuditResult> {
  const result = await audits.run({ url: `${server.url}${path}` }, ctx);
  // The result must be exactly what the declared schema promises.
  return auditResult.parse(result);
}

const statuses = (result: AuditResult) =>
  Object.fromEntries(result.checks.filter((c) => c.id !== "http.response-time").map((c) => [c.id, c.status]));

const failure = toolFailure;

describe("good.html: planted good practice", () => {
  let result: AuditResult;
  beforeAll(async () => {
    result = await audit("/good.html");
  });

  test("every check passes except the three the plain-HTTP fixture server cannot satisfy", () => {
    expect(statuses(result)).toEqual({
      "http.status": "pass",
      // The fixture serves http://127.0.0.1 without redirecting to HTTPS, so HTTPS, HSTS and the
      // Observatory's redirection test genuinely fail.
      "http.https": "fail",
      "http.redirects": "pass",
      "crawl.robots-txt": "pass",
      "crawl.search-bots": "pass",
      "crawl.sitemap": "pass",
      "ai-access.bots": "pass",
      "ai-access.llms-txt": "pass",
      "security.hsts": "fail",
      "security.csp": "pass",
      "security.x-frame-options": "pass",
      "security.x-content-type-options": "pass",
      "security.referrer-policy": "pass",
      "security.cross-origin-resource-policy": "pass",
      "security.cookies": "pass",
      "security.subresource-integrity": "pass",
      "security.redirection": "fail",
      "security.permissions-policy": "pass",
      "meta.title": "pass",
      "meta.description": "pass",
      "meta.canonical": "pass",
      "meta.hreflang": "pass",
      "meta.lang": "pass",
      "meta.viewport": "pass",
      "meta.robots": "pass",
      "meta.open-graph": "pass",
      "headings.h1": "pass",
      "headings.hierarchy": "pass",
      "headings.empty": "pass",
      "structured-data.present": "pass",
      "structured-data.json-ld-syntax": "pass",
      "structured-data.context": "pass",
      "structured-data.required": "pass",
      "structured-data.recommended": "pass",
      "content.word-count": "pass",
      "content.readability": "pass",
      "content.image-alt": "pass",
      "content.links": "pass",
    });
  });

  test("security: 100 − 20 (HSTS over HTTP) − 20 (no redirect to HTTPS) = 60, so the bonuses are withheld: C+", () => {
    expect(result.security.score).toBe(60);
    expect(result.security.grade).toBe("C+");
    expect(result.security.tests.map((t) => [t.id, t.result, t.scoreModifier])).toEqual([
      ["security.hsts", "hsts-not-implemented-no-https", -20],
      ["security.csp", "csp-implemented-with-no-unsafe-default-src-none", 10],
      ["security.x-frame-options", "x-frame-options-implemented-via-csp", 5],
      ["security.x-content-type-options", "x-content-type-options-nosniff", 0],
      ["security.referrer-policy", "referrer-policy-private", 5],
      ["security.cross-origin-resource-policy", "corp-not-implemented", 0],
      ["security.cookies", "cookies-secure-with-httponly-sessions-and-samesite", 5],
      ["security.subresource-integrity", "sri-not-implemented-but-all-scripts-loaded-from-secure-origin", 0],
      ["security.redirection", "redirection-missing", -20],
      ["security.permissions-policy", null, 0],
    ]);
    expect(result.security.notEvaluated.map((n) => n.test)).toEqual(["cross-origin-resource-sharing"]);
  });

  test("site files: robots.txt rules per bot, the sitemap index with its gzipped child, llms.txt", () => {
    expect(result.robots).toMatchObject({
      status: 200,
      mode: "rules",
      sitemaps: [`${server.url}/sitemap.xml`],
    });
    expect(result.robots.bots.every((b) => b.allowed)).toBe(true);
    expect(result.sitemaps.sources.map((s) => [s.url.replace(server.url, ""), s.kind, s.urlCount])).toEqual([
      ["/sitemap.xml", "sitemapindex", 0],
      ["/sitemap-pages.xml", "urlset", 3],
      ["/sitemap-posts.xml.gz", "urlset", 2],
    ]);
    expect(result.sitemaps).toMatchObject({ urlCount: 5, pageListed: true, truncated: false });
    expect(result.llmsTxt).toMatchObject({
      status: 200,
      found: true,
      valid: true,
      title: "Acme Speed",
      links: 3,
    });
  });

  test("page facts: metadata, outline, structured data and content numbers", () => {
    expect(result.meta).toMatchObject({
      title: "HTTP Caching Guide: Faster Pages for Every Visitor",
      canonical: `${server.url}/good.html`,
      lang: "en",
      robots: { noindex: false, nofollow: false },
    });
    expect(result.meta.hreflang.map((h) => h.lang)).toEqual(["en", "de-DE", "x-default"]);
    expect(result.headings.outline.map((h) => `h${h.level}`)).toEqual(["h1", "h2", "h2", "h2", "h3", "h2"]);
    expect(result.structuredData.types).toEqual(["Article", "Organization", "FAQPage"]);
    expect(result.structuredData.items.map((i) => i.type)).toEqual([
      "Article",
      "Person",
      "Organization",
      "FAQPage",
      "Question",
      "Answer",
      "Question",
      "Answer",
    ]);
    expect(result.content.images).toEqual({ total: 1, withoutAlt: 0, decorative: 0 });
    // Internal: /, /about/, /faq.html, /privacy. External: the three cited sources and Twitter.
    expect(result.content.links).toEqual({ internal: 4, external: 4, nofollow: 0 });
    expect(result.content.wordCount).toBeGreaterThanOrEqual(300);
    expect(result.content.readability.fleschReadingEase).toBeGreaterThanOrEqual(60);
  });

  test("score: weighted categories, http losing only HTTPS", () => {
    const rt = result.checks.find((c) => c.id === "http.response-time")!.status;
    // http 75 × 10 + security 60 × 10 + 100 × the other 80 weight points = 93.5 → 94 (92 if the box was slow).
    expect(result.score).toBe(rt === "pass" ? 94 : 92);
    expect(result.scoreCappedBy).toEqual([]);
    expect(result.summary).toEqual({ pass: rt === "pass" ? 36 : 35, warn: rt === "pass" ? 0 : 1, fail: 3 });
  });
});

describe("bad.html: planted defects", () => {
  let result: AuditResult;
  beforeAll(async () => {
    result = await audit("/bad.html");
  });

  test("each planted defect is found with the planted severity", () => {
    expect(statuses(result)).toEqual({
      "http.status": "pass",
      "http.https": "fail",
      "http.redirects": "pass",
      "crawl.robots-txt": "pass",
      "crawl.search-bots": "pass",
      "crawl.sitemap": "warn",
      "ai-access.bots": "pass",
      "ai-access.llms-txt": "pass",
      "security.hsts": "fail",
      "security.csp": "fail",
      "security.x-frame-options": "fail",
      "security.x-content-type-options": "warn",
      // No Referrer-Policy and no CORP: the Observatory passes both (0 points; browsers' defaults apply).
      "security.referrer-policy": "pass",
      "security.cross-origin-resource-policy": "pass",
      "security.cookies": "fail",
      "security.subresource-integrity": "pass",
      "security.redirection": "fail",
      "security.permissions-policy": "warn",
      "meta.title": "warn",
      "meta.description": "fail",
      "meta.canonical": "warn",
      "meta.hreflang": "fail",
      "meta.lang": "warn",
      "meta.viewport": "fail",
      "meta.robots": "fail",
      "meta.open-graph": "warn",
      "headings.h1": "warn",
      "headings.hierarchy": "warn",
      "headings.empty": "warn",
      "structured-data.present": "pass",
      "structured-data.json-ld-syntax": "fail",
      "structured-data.context": "pass",
      "structured-data.required": "fail",
      "structured-data.recommended": "warn",
      "content.word-count": "fail",
      "content.readability": "pass",
      "content.image-alt": "fail",
      "content.links": "warn",
    });
  });

  test("the evidence names exactly what was planted", () => {
    const evidence = (id: string) => result.checks.find((c) => c.id === id)!.evidence;
    expect(evidence("headings.h1")).toEqual(["<h1>Welcome</h1>", "<h1>Our Products</h1>"]);
    expect(evidence("headings.hierarchy")).toEqual(["<h2>Turbo Widget</h2> → <h4>Specs</h4> skips h3"]);
    expect(evidence("headings.empty")).toEqual(["<h3>(empty)</h3>"]);
    expect(evidence("content.image-alt")).toEqual([
      '<img src="/img/widget.png">',
      '<img src="/img/widget-2.png">',
    ]);
    expect(evidence("structured-data.required")).toEqual([
      "Product at json-ld[1]: missing offers or review or aggregateRating",
    ]);
    expect(evidence("structured-data.json-ld-syntax")[0]).toMatch(/^json-ld\[0\]: /);
    expect(evidence("meta.hreflang")).toEqual([`hreflang="en-UK" → ${server.url}/bad.html`]);
    expect(evidence("security.cookies")).toEqual(["set-cookie: sessionid=xyz789; Path=/"]);
    expect(result.checks.find((c) => c.id === "meta.hreflang")!.message).toMatch(/GB, not UK/);
  });

  test("security: no headers and a bare session cookie score 0, F", () => {
    expect(result.security.score).toBe(0);
    expect(result.security.grade).toBe("F");
  });

  test("noindex caps the overall score at 40 and says why", () => {
    expect(result.scoreCappedBy).toEqual(["meta.robots: noindex"]);
    expect(result.score).toBe(40);
    expect(result.sitemaps.pageListed).toBe(false);
    expect(result.structuredData.malformed).toHaveLength(1);
    expect(result.content.wordCount).toBeLessThan(300);
  });
});

test("a page robots.txt closes to GPTBot is still open to answer engines: a warning naming the rule", async () => {
  const result = await audit("/private/page.html");
  const check = result.checks.find((c) => c.id === "ai-access.bots")!;
  expect(check.status).toBe("warn");
  // Line 3: the fixture's robots.txt opens with a comment.
  expect(check.evidence).toEqual(['GPTBot (OpenAI, training): blocked by line 3 "Disallow: /private"']);
  expect(result.robots.bots.filter((b) => !b.allowed).map((b) => b.token)).toEqual(["GPTBot"]);
  expect(result.checks.find((c) => c.id === "crawl.search-bots")!.status).toBe("pass");
});

test("redirects: the chain is recorded hop by hop and judged", async () => {
  const chain = await audit("/chain");
  expect(chain.finalUrl).toBe(`${server.url}/good.html`);
  expect(chain.http.redirects.map((r) => [r.status, r.url.replace(server.url, "")])).toEqual([
    [302, "/chain"],
    [301, "/old-good"],
  ]);
  expect(chain.checks.find((c) => c.id === "http.redirects")!.status).toBe("warn");
  const single = await audit("/old-good");
  expect(single.checks.find((c) => c.id === "http.redirects")!.status).toBe("pass");
  // The canonical matches the final URL, so the page still counts as listed and self-canonical.
  expect(single.checks.find((c) => c.id === "meta.canonical")!.status).toBe("pass");
});

describe("failures", () => {
  test.each([
    ["/server-error", "HTTP_ERROR", /HTTP 500/],
    ["/missing-page", "HTTP_ERROR", /HTTP 404/],
    ["/report.pdf", "NOT_HTML", /application\/pdf/],
  ])("%s fails with %s", async (path, code, message) => {
    const err = await failure(audits.run({ url: `${server.url}${path}` }, ctx));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
  });

  test("an unreachable host fails with the fetcher's code", async () => {
    const closed = await startFixtureServer({});
    await closed.close();
    const err = await failure(audits.run({ url: `${closed.url}/` }, ctx));
    expect(err.code).toBe("CONNECT_ERROR");
  });

  test("a private target is refused by the production fetcher", async () => {
    const strict = { ...ctx, fetch: createGuardedFetch() };
    const err = await failure(audits.run({ url: `${server.url}/good.html` }, strict));
    expect(err.code).toBe("TARGET_FORBIDDEN");
  });
});

test("input: http(s) URLs only, at most 2048 characters, no extra fields", () => {
  expect(audits.input.safeParse({ url: "https://example.com/" }).success).toBe(true);
  expect(audits.input.safeParse({ url: "ftp://example.com/" }).success).toBe(false);
  expect(audits.input.safeParse({ url: `https://example.com/${"a".repeat(2048)}` }).success).toBe(false);
  expect(audits.input.safeParse({ url: "https://example.com/", extra: 1 }).success).toBe(false);
  expect(audits.cost({ url: "https://example.com/" })).toBe(50);
});
