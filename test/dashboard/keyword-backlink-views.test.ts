// The keyword and backlink result views, rendered to HTML as the server sends them.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { ResultView } from "@/components/results/result-view";
import { keywordMetricsResult } from "@/lib/keywords/metrics-schema";
import { keywordResearchResult } from "@/lib/keywords/schema";
import { backlinksOverviewResult, domainAuthorityResult } from "@/lib/webgraph/backlinks-schema";

const render = (tool: string, result: unknown) =>
  renderToStaticMarkup(createElement(ResultView, { tool, result }));

const trend = [
  { year: 2025, month: 1, searchVolume: 100 },
  { year: 2025, month: 2, searchVolume: 180 },
];
const coldBrew = {
  keyword: "cold brew",
  searchVolume: 90500,
  difficulty: 52,
  cpc: 1.1,
  competition: 0.4,
  intent: "informational" as const,
  trend,
};

const fromUrl = keywordResearchResult.parse({
  mode: "url",
  url: "https://coffee.example/",
  siteUrl: "https://coffee.example/",
  pagesCrawled: 3,
  source: "extractive",
  background: "WordNet 3.1 glosses",
  keyphrases: [],
  topics: [
    {
      topic: "cold brew",
      score: 1,
      keyphrases: ["cold brew", "cold brew coffee"],
      intent: "informational",
      intentReason: "question words",
      pages: [{ url: "https://coffee.example/faq", title: "FAQ <b>" }],
      questions: [{ question: "How long does cold brew keep?", url: "https://coffee.example/faq" }],
    },
  ],
  questions: [],
  metrics: null,
  metricsSource: null,
});

describe("keyword views", () => {
  test("topic clusters with their pages, intent and questions; no figures without a provider", () => {
    const html = render("keyword-research", fromUrl);
    expect(html).toContain("cold brew coffee");
    expect(html).toContain("How long does cold brew keep?");
    expect(html).toContain("informational");
    // Page text is escaped, never injected as markup.
    expect(html).toContain("FAQ &lt;b&gt;");
    expect(html).toContain("No keyword data provider is configured");
  });

  test("metrics table with the source and a labelled trend", () => {
    const html = render("keyword-research", { ...fromUrl, metrics: [coldBrew], metricsSource: "dataforseo" });
    expect(html).toContain("Source: DataForSEO");
    expect(html).toContain("90,500");
    expect(html).toContain('aria-label="Monthly searches, oldest first: 2025-01 100, 2025-02 180"');
  });

  test("keyword metrics: one row per keyword, dashes where the provider has no figure", () => {
    const result = keywordMetricsResult.parse({
      location: 2840,
      language: "en",
      source: "dataforseo",
      keywords: [coldBrew, { ...coldBrew, keyword: "rare", searchVolume: null, cpc: null, trend: [] }],
    });
    const html = render("keyword-metrics", result);
    expect(html.match(/<tr>/g)).toHaveLength(3);
    expect(html).toContain("rare");
    expect(html).toContain("—");
  });
});

describe("backlink views", () => {
  const figures = {
    snapshot: "cc-main-sample-d2",
    takenOn: "2025-08-31",
    found: true,
    referringDomains: 4,
    referringHosts: 5,
    rank: { harmonicCentralityRank: 2, pageRankRank: 3, authorityScore: 81, level: "domain" },
  };
  test("ranks, authority, top referring domains and the source", () => {
    const result = backlinksOverviewResult.parse({
      target: "example.com",
      source: "webgraph",
      webgraph: {
        ...figures,
        topReferringDomains: [
          { domain: "wikipedia.org", harmonicCentralityRank: 1, pageRankRank: 1, authorityScore: 100 },
        ],
        history: [figures],
      },
      dataforseo: null,
      warnings: [],
    });
    const html = render("backlinks-overview", result);
    expect(html).toContain("imported Common Crawl web graph");
    expect(html).toContain("wikipedia.org");
    expect(html).toContain(">81<");
    expect(html).toContain("2025-08-31: 4 referring domains, authority 81");
  });

  test("domain authority: one row per domain, a domain outside the graph says so", () => {
    const result = domainAuthorityResult.parse({
      source: "webgraph",
      snapshot: { name: "cc-main-sample-d2", takenOn: "2025-08-31", level: "domain" },
      domains: [
        {
          domain: "example.com",
          found: true,
          authorityScore: 81,
          harmonicCentralityRank: 2,
          pageRankRank: 3,
          referringDomains: 4,
          dataforseo: null,
        },
        {
          domain: "nowhere.test",
          found: false,
          authorityScore: null,
          harmonicCentralityRank: null,
          pageRankRank: null,
          referringDomains: null,
          dataforseo: null,
        },
      ],
    });
    const html = render("domain-authority", result);
    expect(html).toContain("not in graph");
    expect(html).toContain("cc-main-sample-d2");
  });
});
