import { expect, test } from "vitest";
import { analyzeGeo, GEO_SIGNALS, type GeoSignalId } from "./geo";
import { parsePage } from "./page";

const geo = (main: string, lang = "en") =>
  analyzeGeo(
    parsePage({
      url: "https://example.com/guide",
      html: `<html lang="${lang}"><body><nav><a href="https://twitter.com/acme">t</a><a href="https://nav-only.example.org/">n</a></nav><main>${main}</main></body></html>`,
    }),
  );
const scores = (main: string) =>
  Object.fromEntries(geo(main).signals.map((s) => [s.id, s.score])) as Record<GeoSignalId, number>;

const RICH = `<h1>HTTP caching</h1>
<p>According to the HTTP Archive, 45% of requests in 2024 were served from cache. We measured a 3x speedup on repeat visits across 1,200 pages. The RFC 9111 standard defines Cache-Control and ETag headers.</p>
<p>Our tests show that a CDN cut latency by 120 ms for users in 30 countries. <a href="https://httparchive.org/reports">HTTP Archive</a> and <a href="https://www.rfc-editor.org/rfc/rfc9111">RFC 9111</a> document the data, as does <a href="https://developer.mozilla.org/docs/Web/HTTP/Caching">MDN</a>.</p>
<blockquote><p>Caching is the cheapest performance win you will ever ship.</p><footer>— <cite>Jane Doe, Fastly</cite></footer></blockquote>
<p>“Most sites leave caching headers at their defaults,” said John Smith, an engineer at Akamai. Use <code>Cache-Control: max-age=31536000</code> with TLS 1.3 and HTTP/2.</p>`;

const HEDGING =
  "<h1>Stuff</h1><p>Maybe caching might perhaps help, I think. It seems that it could be good, probably. It is kind of nice and sort of useful, maybe for some people who perhaps want it.</p>";

test("a page applying every GEO method scores 100 on each signal", () => {
  const report = geo(RICH);
  expect(report.signals.map((s) => [s.id, s.score])).toEqual([
    ["citations", 100],
    ["quotations", 100],
    ["statistics", 100],
    ["fluency", 100],
    ["easy-to-understand", 100],
    ["authoritative", 100],
    ["technical-terms", 100],
  ]);
  expect(report.score).toBe(100);
  expect(report.signals.map((s) => s.method)).toEqual(Object.values(GEO_SIGNALS).map((s) => s.method));
});

test("hedged prose without sources, quotes or numbers scores low, with advice for each gap", () => {
  const report = geo(HEDGING);
  const s = Object.fromEntries(report.signals.map((x) => [x.id, x]));
  expect(s.citations?.score).toBe(0);
  expect(s.quotations?.score).toBe(0);
  expect(s.statistics?.score).toBe(0);
  expect(s.authoritative?.score).toBe(0);
  expect(s["technical-terms"]?.score).toBe(0);
  expect(s.authoritative?.evidence[0]).toMatch(/^11 hedging phrases/);
  expect(s.citations?.recommendation).toMatch(/Cite sources/);
  expect(s.quotations?.recommendation).toMatch(/quotations from named experts/);
  // Weighted: fluency 75 × 0.1 + easy 100 × 0.1 = 17.5.
  expect(report.score).toBe(18);
});

test("citations count distinct external domains in the content, not nav, social or same-site links", () => {
  const s = geo(
    `<p>${"Words here. ".repeat(50)}<a href="/internal">in</a> <a href="https://www.example.com/x">www self</a> <a href="https://facebook.com/share">fb</a> <a href="https://nih.gov/a">nih</a> <a href="https://nih.gov/b">nih again</a></p>`,
  ).signals[0]!;
  expect(s.evidence[0]).toBe("1 external source domain linked from the content (1 authoritative)");
  // One domain of a target of 2 (for ≤ 800 words) is half the score.
  expect(s.score).toBe(50);
});

test("citation markers (footnotes, author-year) count half a source each", () => {
  const s = geo("<p>Caching reduces load [1]. Latency drops sharply (Smith, 2021).</p>").signals[0]!;
  expect(s.evidence[1]).toMatch(/^2 citation markers/);
  expect(s.score).toBe(50);
});

test("quotations: attributed quotes count fully, unattributed ones half", () => {
  expect(scores("<blockquote>Plain words quoted here without anyone named.</blockquote>").quotations).toBe(
    25,
  );
  expect(
    scores('<blockquote cite="https://a.example/">Quoted words from a named source page.</blockquote>')
      .quotations,
  ).toBe(50);
  expect(scores("<p>He wrote <q>caching is the cheapest win</q> in his book.</p>").quotations).toBe(50);
  expect(scores("<p>“This is a quoted sentence of speech,” she explained to the room.</p>").quotations).toBe(
    50,
  );
  // Short scare quotes are not quotations.
  expect(scores('<p>The so-called "fast" path is slow.</p>').quotations).toBe(0);
});

test("statistics: percentages, money, units, scaled numbers, years in context and ratios", () => {
  const sentences = [
    "Conversion rose 12% last quarter.",
    "The plan costs $49 per month.",
    "Pages load in 800 ms on average.",
    "There are 3 million users.",
    "The law changed in 2019.",
    "Nine out of 10 teams agree.",
    "This sentence has no number.",
    "Version 2 is better.",
  ];
  const s = geo(`<p>${sentences.join(" ")}</p>`).signals.find((x) => x.id === "statistics")!;
  expect(s.evidence.slice(1)).toEqual(sentences.slice(0, 5));
  // "Nine out of 10" spells the first number; only digit ratios count. 5 of a target of 3 caps at 100.
  expect(s.score).toBe(100);
});

test("fluency penalises long sentences and monotonous openings", () => {
  const long = `<p>${("This sentence goes on and on with many clauses that keep adding more words until it becomes far too long to read comfortably in one go, which tires every reader who meets it. ").repeat(4)}</p>`;
  expect(scores(long).fluency).toBeLessThan(20);
  const varied =
    "<p>Short sentences help readers follow an argument without losing track. Most visitors skim a page before deciding to read it. Clear structure guides them to the part they need. Good headings matter for the same reason.</p>";
  expect(scores(varied).fluency).toBe(100);
  const choppy = "<p>Caching helps. Pages load. Users stay. Sales grow.</p>";
  // Two words per sentence: 6 under the 8-word floor × 6 points.
  expect(scores(choppy).fluency).toBe(64);
  expect(scores("<p>Too short.</p>").fluency).toBe(0);
});

test("easy-to-understand notes that Flesch is English-only on other languages", () => {
  const signal = geo("<p>Dies ist ein einfacher Satz. Noch ein Satz hier.</p>", "de").signals.find(
    (s) => s.id === "easy-to-understand",
  )!;
  expect(signal.evidence[1]).toMatch(/calibrated for English/);
});
