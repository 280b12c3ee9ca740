import { describe, expect, test } from "vitest";
import type { CrawledPage, CrawlResult } from "@/lib/crawl/crawl-site";
import { createRobotsForMode } from "@/lib/seo/robots";
import { buildLlmsTxt, classifyPage } from "./build-llms-txt";

const origin = "https://acme.example";

function page(path: string, facts: Partial<CrawledPage> = {}): CrawledPage {
  return {
    url: `${origin}${path}`,
    finalUrl: `${origin}${path}`,
    status: 200,
    title: null,
    metaDescription: null,
    siteName: null,
    ogType: null,
    headings: [],
    canonical: null,
    summary: null,
    wordCount: 100,
    lang: "en",
    noindex: false,
    links: [],
    ...facts,
  };
}

function crawl(pages: CrawledPage[], extra: Partial<CrawlResult> = {}): CrawlResult {
  return {
    startUrl: `${origin}/`,
    siteUrl: `${origin}/`,
    discovery: "sitemap",
    pages,
    skipped: [],
    robots: { url: `${origin}/robots.txt`, status: 404, robots: createRobotsForMode("allow-all") },
    sitemap: null,
    truncated: false,
    elapsedMs: 1,
    ...extra,
  };
}

describe("classifyPage", () => {
  const cases: [string, string, string?][] = [
    ["/docs/install", "Docs"],
    ["/en/docs/install", "Docs"],
    ["/help/faq", "Docs"],
    ["/pricing", "Products"],
    ["/features/sso", "Products"],
    ["/blog/2024/launch", "Blog"],
    ["/changelog", "Blog"],
    ["/about", "Company"],
    ["/careers/engineer", "Company"],
    ["/legal/privacy", "Optional"],
    ["/privacy-policy", "Optional"],
    ["/case-studies/acme", "Case Studies"],
    ["/why-acme", "Pages"],
    ["/2024/05/our-story", "Blog", "article"],
    ["/widgets/blue", "Products", "product"],
  ];
  for (const [path, section, ogType] of cases) {
    test(`${path} → ${section}`, () => {
      expect(classifyPage({ finalUrl: `${origin}${path}`, ogType: ogType ?? null })).toBe(section);
    });
  }

  test("a top-level page joins the section of the pages under it", () => {
    expect(classifyPage({ finalUrl: `${origin}/resources`, ogType: null })).toBe("Pages");
    expect(classifyPage({ finalUrl: `${origin}/resources`, ogType: null }, new Set(["resources"]))).toBe(
      "Resources",
    );
  });
});

describe("buildLlmsTxt", () => {
  test("takes the site name from the shared title suffix and strips it from link titles", () => {
    const draft = buildLlmsTxt(
      crawl([
        page("/", { title: "Acme — Widgets for everyone", metaDescription: "Acme makes widgets." }),
        page("/docs/setup", { title: "Setup | Acme Widgets", metaDescription: "Install the widget." }),
        page("/blog/hello", { title: "Hello world | Acme Widgets", summary: "Our first post. It is short." }),
      ]),
    );
    expect(draft.model.title).toBe("Acme Widgets");
    expect(draft.model.summary).toBe("Acme makes widgets.");
    expect(draft.sections).toEqual([
      {
        title: "Docs",
        links: [{ title: "Setup", url: `${origin}/docs/setup`, notes: "Install the widget." }],
      },
      {
        title: "Blog",
        links: [{ title: "Hello world", url: `${origin}/blog/hello`, notes: "Our first post." }],
      },
    ]);
    expect(draft.warnings).toEqual([]);
  });

  test("leaves out error pages, noindex pages, other canonicals and duplicates", () => {
    const draft = buildLlmsTxt(
      crawl([
        page("/", { siteName: "Acme" }),
        page("/docs/a", { title: "A" }),
        page("/docs/a/", { title: "A again" }),
        page("/docs/b", { title: "B", noindex: true }),
        page("/docs/c", { title: "C", canonical: `${origin}/docs/a` }),
        page("/docs/d", { title: "D", status: 500 }),
      ]),
    );
    expect(draft.pagesUsed).toEqual([`${origin}/docs/a`]);
    expect(draft.warnings).toEqual([
      "The homepage has no meta description or opening paragraph; the file has no summary.",
      "1 page(s) answered with an HTTP error and were left out.",
      "1 page(s) are marked noindex and were left out.",
      "1 page(s) name another canonical URL and were left out.",
    ]);
    expect(draft.model.summary).toBeUndefined();
  });

  test("falls back to the h1, the path and the hostname", () => {
    const draft = buildLlmsTxt(
      crawl(
        [
          page("/", { summary: "We build tools for teams. Try them." }),
          page("/guides/x", { headings: [{ level: 1, text: "Guide X" }] }),
          page("/guides/getting_started"),
        ],
        { discovery: "links", truncated: true },
      ),
    );
    expect(draft.model.title).toBe("acme.example");
    expect(draft.model.summary).toBe("We build tools for teams.");
    expect(draft.sections[0]?.links.map((l) => l.title)).toEqual(["Guide X", "Getting Started"]);
    expect(draft.warnings).toContain(
      "No usable sitemap was found; pages were discovered by following links.",
    );
    expect(draft.warnings).toContain("The crawl stopped after 3 pages; the site has more.");
  });

  test("puts the known sections first and Optional last", () => {
    const draft = buildLlmsTxt(
      crawl([
        page("/"),
        page("/legal/terms"),
        page("/about"),
        page("/misc"),
        page("/webinars/one"),
        page("/blog/a"),
        page("/pricing"),
        page("/docs/a"),
      ]),
    );
    expect(draft.sections.map((s) => s.title)).toEqual([
      "Docs",
      "Products",
      "Blog",
      "Webinars",
      "Pages",
      "Company",
      "Optional",
    ]);
  });
});
