import { beforeAll, describe, expect } from "vitest";
import type { FixtureServer } from "@/test/fixture-server";
import { toolTest } from "@/test/support/fixtures";
import { type ToolContext, ToolError } from "../types";
import { seoAeoGeoAudit as definition } from "./definition";
import { KEY_SEO_CHECKS, runner } from "./run";

const seoAeoGeoAudit = { ...definition, ...runner };

import { type SeoAeoGeoResult, seoAeoGeoResult } from "./schema";

let server: FixtureServer;
let ctx: ToolContext;

const test = toolTest;
test.beforeAll(({ site: _site, ctx: _ctx }) => {
  server = _site;
  ctx = _ctx;
});

const run = async (path: string) =>
  seoAeoGeoResult.parse(await seoAeoGeoAudit.run({ url: `${server.url}${path}` }, ctx));
const statuses = (checks: SeoAeoGeoResult["aeo"]["checks"]) =>
  Object.fromEntries(checks.map((c) => [c.id, c.status]));
const signalScores = (r: SeoAeoGeoResult) => Object.fromEntries(r.geo.signals.map((s) => [s.id, s.score]));

describe("good.html", () => {
  let r: SeoAeoGeoResult;
  beforeAll(async () => {
    r = await run("/good.html");
  });

  test("AEO: every answer-engine check passes", () => {
    expect(statuses(r.aeo.checks)).toEqual({
      "aeo.question-headings": "pass",
      "aeo.concise-answers": "pass",
      "aeo.faq-schema": "pass",
      "aeo.entity": "pass",
      "aeo.about-link": "pass",
      "aeo.author": "pass",
      "ai-access.bots": "pass",
      "ai-access.llms-txt": "pass",
    });
    expect(r.aeo.score).toBe(100);
    expect(r.aeo.questions.map((q) => [q.question, q.concise])).toEqual([
      ["What is HTTP caching?", true],
      ["How long should I cache static files?", true],
      ["Which headers control the cache?", true],
    ]);
  });

  test("GEO: the planted sources, quotes and statistics are measured", () => {
    expect(signalScores(r)).toEqual({
      citations: 100,
      quotations: 100,
      statistics: 100,
      fluency: 93,
      "easy-to-understand": 100,
      authoritative: 91,
      "technical-terms": 76,
    });
    // 0.2 × (100 + 100 + 100) + 0.1 × (93 + 100 + 91 + 76) = 96.
    expect(r.geo.score).toBe(96);
    const citations = r.geo.signals.find((s) => s.id === "citations")!;
    expect(citations.evidence.slice(2)).toEqual([
      "httparchive.org",
      "rfc-editor.org",
      "developer.mozilla.org",
    ]);
    const quotes = r.geo.signals.find((s) => s.id === "quotations")!;
    expect(quotes.evidence).toEqual([
      "blockquote (attributed): Caching is the cheapest speed win most teams will ever ship.",
      "quoted (attributed): “Most sites leave their caching headers at the defaults,” says Ana Ruiz, who leads the web team at Northwind.",
    ]);
    for (const s of r.geo.signals) expect(s.recommendation.length).toBeGreaterThan(20);
  });

  test("SEO reuses the audit: key checks in fixed order, issues are the non-passing checks", () => {
    expect(r.seo.keyChecks.map((c) => c.id)).toEqual([...KEY_SEO_CHECKS]);
    expect(
      r.seo.issues.filter((c) => c.id !== "http.response-time").map((c) => `${c.id}:${c.status}`),
    ).toEqual(["http.https:fail", "security.hsts:fail", "security.redirection:fail"]);
    expect(r.seo.securityGrade).toBe("C+");
    const fast = !r.seo.issues.some((c) => c.id === "http.response-time");
    expect(r.seo.score).toBe(fast ? 94 : 92);
    // 0.4 × 94 + 0.3 × 100 + 0.3 × 96 = 96.4 (95.6 when slow).
    expect(r.overall).toBe(96);
    expect(r.weights).toEqual({ seo: 0.4, aeo: 0.3, geo: 0.3 });
  });
});

test("bad.html: nothing for answer engines, little for generative engines, SEO capped by noindex", async () => {
  const r = await run("/bad.html");
  expect(statuses(r.aeo.checks)).toEqual({
    "aeo.question-headings": "warn",
    "aeo.concise-answers": "warn",
    "aeo.faq-schema": "warn",
    "aeo.entity": "warn",
    "aeo.about-link": "warn",
    "aeo.author": "warn",
    "ai-access.bots": "pass",
    "ai-access.llms-txt": "pass",
  });
  // (2 passes + 6 × 0.5) / 8 = 62.5 → 63.
  expect(r.aeo.score).toBe(63);
  expect(signalScores(r)).toMatchObject({
    citations: 50,
    quotations: 0,
    statistics: 0,
    "technical-terms": 0,
  });
  expect(r.seo.score).toBe(40);
  expect(r.seo.scoreCappedBy).toEqual(["meta.robots: noindex"]);
  expect(r.overall).toBe(Math.round(0.4 * 40 + 0.3 * 63 + 0.3 * r.geo.score));
});

test("AEO reports a training crawler blocked by robots.txt", async () => {
  const r = await run("/private/page.html");
  expect(r.aeo.checks.find((c) => c.id === "ai-access.bots")!.status).toBe("warn");
});

test("a page that cannot be audited fails the job like the audit does", async () => {
  const err = await seoAeoGeoAudit.run({ url: `${server.url}/server-error` }, ctx).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).code).toBe("HTTP_ERROR");
  expect(seoAeoGeoAudit.cost({ url: "https://example.com/" })).toBe(75);
});
