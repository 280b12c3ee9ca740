// Hostile pages must not stall the analyses: 1 MB of each adversarial text in under a second of CPU. Timed on
// purpose: these regexes once took quadratic time (a 40 KB page blocked the event loop for seconds, 1 MB for an hour).
import { load } from "cheerio";
import { beforeAll, describe, expect, test } from "vitest";
import {
  ADVERSARIAL_KINDS,
  buildAdversarialPage,
  cpuTimeMs,
  MARKUP_KINDS,
  repeatTo,
} from "@/bench/analysis-inputs";
import { extractPage } from "@/lib/crawl/extract-page";
import { extractFaqPairs } from "@/lib/tools/faq-generator/extract-pairs";
import { analyzeAeoPage } from "./aeo";
import { analyzePage } from "./analyze-page";
import { extractBlocks, isTextCapped, MAX_BLOCK_CHARS, MAX_PAGE_TEXT_CHARS } from "./blocks";
import { analyzeContent } from "./content";
import { analyzeGeo } from "./geo";
import { parseLinkHeader } from "./meta-links";
import { parsePage } from "./page";
import { isQuestionText, toQuestion } from "./questions";
import { analyzeStructuredData } from "./structured-data/analyze";
import { splitSentences } from "./text";

const ONE_MB = 1024 * 1024;
const BUDGET_MS = 1000;
// Runs of text; hostile markup (deep nesting, huge sibling lists) is measured by `npm run bench:analysis`.
const KINDS = Object.entries(ADVERSARIAL_KINDS).filter(([kind]) => !MARKUP_KINDS.has(kind));

function hostile(unit: string): string {
  return repeatTo(unit, ONE_MB);
}

// CPU time, not wall time: the bound is on the work done, whatever else the machine is running.
const elapsed = cpuTimeMs;

const URL_ = "https://example.com/guide";

beforeAll(() => {
  // Compile every path once so the timings below measure the algorithms, not the first call.
  const page = parsePage({ url: URL_, html: buildAdversarialPage("Warm up. The first 3 runs. ") });
  analyzePage(page);
  analyzeGeo(page);
  analyzeAeoPage(page, analyzeStructuredData(page));
});

describe.each(KINDS)("1 MB of %s", (_kind, unit) => {
  const text = hostile(unit());

  test("splitSentences", () => {
    expect(text.length).toBeGreaterThanOrEqual(ONE_MB);
    expect(elapsed(() => splitSentences(`Start ${text} end.`))).toBeLessThan(BUDGET_MS);
  });

  test("parseLinkHeader", () => {
    expect(elapsed(() => parseLinkHeader(`<https://example.com/>; ${text}, ${text}`))).toBeLessThan(
      BUDGET_MS,
    );
  });

  test("question clean-up", () => {
    expect(
      elapsed(() => {
        toQuestion(`What ${text} x`);
        isQuestionText(`1. What is ${text}`);
      }),
    ).toBeLessThan(BUDGET_MS);
  });

  test("the page analyses of the audits, the SEO/AEO/GEO audit, the FAQ generator and the crawler", () => {
    const html = buildAdversarialPage(text);
    const page = parsePage({ url: URL_, html, headers: { link: [text] } });
    const analyses: Record<string, number> = {
      audit: elapsed(() => analyzePage(page)),
      geo: elapsed(() => analyzeGeo(page)),
      aeo: elapsed(() => analyzeAeoPage(page, analyzeStructuredData(page))),
      faq: elapsed(() => extractFaqPairs(page, analyzeStructuredData(page))),
    };
    // The crawler parses the HTML itself; parsing (parse5, linear) is not what is under test, so it is taken off.
    analyses.crawl = elapsed(() => extractPage(html, URL_)) - elapsed(() => load(html));
    expect(Object.entries(analyses).filter(([, ms]) => ms >= BUDGET_MS)).toEqual([]);
  });
});

describe("the patterns that were quadratic, each alone", () => {
  test("statistics on a sentence of 1 MB of digits", () => {
    const page = parsePage({
      url: URL_,
      html: `<main><p>Growth was ${"9".repeat(ONE_MB)} here today.</p></main>`,
    });
    expect(elapsed(() => analyzeGeo(page))).toBeLessThan(BUDGET_MS);
  });

  test("technical terms on 1 MB of a-a-a-", () => {
    const page = parsePage({
      url: URL_,
      html: `<main><p>We use ${"a-".repeat(ONE_MB / 2)} 1 today.</p></main>`,
    });
    expect(elapsed(() => analyzeGeo(page))).toBeLessThan(BUDGET_MS);
  });

  test("quotations on 1 MB of opening quotes", () => {
    const page = parsePage({ url: URL_, html: `<main><p>He said ${"“".repeat(ONE_MB)} today.</p></main>` });
    expect(elapsed(() => analyzeGeo(page))).toBeLessThan(BUDGET_MS);
  });

  test("sentence splitting on 1 MB of initials", () => {
    expect(elapsed(() => splitSentences("A. ".repeat(ONE_MB / 3)))).toBeLessThan(BUDGET_MS);
  });

  test("a Link header of 1 MB of '<'", () => {
    expect(elapsed(() => parseLinkHeader("<".repeat(ONE_MB)))).toBeLessThan(BUDGET_MS);
  });
});

describe("text caps", () => {
  test("a block longer than the cap is cut to it, and the page says so", () => {
    const page = parsePage({ url: URL_, html: `<main><p>${"word ".repeat(MAX_BLOCK_CHARS)}</p></main>` });
    const [block] = extractBlocks(page);
    expect(block?.text.length).toBeLessThanOrEqual(MAX_BLOCK_CHARS);
    expect(block?.text.length).toBeGreaterThan(MAX_BLOCK_CHARS - 10);
    expect(isTextCapped(page)).toBe(true);
    const wordCount = analyzeContent(page).checks.find((c) => c.id === "content.word-count");
    expect(wordCount?.evidence.some((e) => e.includes("were analysed"))).toBe(true);
  });

  test("the page's text is capped in total", () => {
    const paragraph = `<p>${"word ".repeat(1000).trim()}.</p>`;
    const count = Math.ceil((2 * MAX_PAGE_TEXT_CHARS) / 5000);
    const page = parsePage({ url: URL_, html: `<main>${paragraph.repeat(count)}</main>` });
    const total = extractBlocks(page).reduce((n, b) => n + b.text.length, 0);
    expect(total).toBeLessThanOrEqual(MAX_PAGE_TEXT_CHARS);
    expect(total).toBeGreaterThan(MAX_PAGE_TEXT_CHARS - 5000);
    expect(isTextCapped(page)).toBe(true);
  });

  test("an ordinary page is analysed whole, with no note", () => {
    const page = parsePage({
      url: URL_,
      html: `<main><h1>Guide</h1><p>${"A short sentence. ".repeat(50)}</p></main>`,
    });
    expect(isTextCapped(page)).toBe(false);
    expect(extractBlocks(page).map((b) => b.text.length)).toEqual([5, 50 * 18 - 1]);
    const wordCount = analyzeContent(page).checks.find((c) => c.id === "content.word-count");
    expect(wordCount?.evidence).toEqual(["151 words of main content"]);
  });
});
