/**
 * Generative-engine-optimisation signals after Aggarwal et al., "GEO: Generative Engine Optimization"
 * (KDD 2024). The paper rewrites content with nine methods and measures visibility in generated answers;
 * the strongest were Quotation Addition, Statistics Addition and Cite Sources (roughly 30–40% relative
 * gains), followed by Fluency Optimization and Easy-to-Understand, then Authoritative and Technical Terms.
 * Here we measure how much of each method a page already applies, 0–100, and weigh them in that order.
 */
import type { Element } from "domhandler";
import { extractBlocks, findMainRoot, textOf } from "./blocks";
import { clip, plural } from "./check";
import { isSameSite, listProseSentences } from "./content";
import { findDescendants, tagSet } from "./dom";
import { countWords, listWords, measureReadability } from "./text";
import type { ParsedPage } from "./types";

export const GEO_SIGNALS = {
  citations: { method: "Cite Sources", weight: 0.2 },
  quotations: { method: "Quotation Addition", weight: 0.2 },
  statistics: { method: "Statistics Addition", weight: 0.2 },
  fluency: { method: "Fluency Optimization", weight: 0.1 },
  "easy-to-understand": { method: "Easy-to-Understand", weight: 0.1 },
  authoritative: { method: "Authoritative", weight: 0.1 },
  "technical-terms": { method: "Technical Terms", weight: 0.1 },
} as const;

export type GeoSignalId = keyof typeof GEO_SIGNALS;

interface GeoSignal {
  id: GeoSignalId;
  /** The GEO paper's method this signal measures. */
  method: string;
  score: number;
  weight: number;
  recommendation: string;
  evidence: string[];
}

export interface GeoReport {
  score: number;
  signals: GeoSignal[];
}

const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

function signal(id: GeoSignalId, score: number, recommendation: string, evidence: string[]): GeoSignal {
  const { method, weight } = GEO_SIGNALS[id];
  return {
    id,
    method,
    score: clamp(score),
    weight,
    recommendation,
    evidence: evidence.slice(0, 10).map((e) => clip(e, 200)),
  };
}

export function analyzeGeo(page: ParsedPage): GeoReport {
  const sentences = listProseSentences(page);
  const words = extractBlocks(page).reduce((n, b) => n + countWords(b.text), 0);
  const signals = [
    measureCitations(page, words),
    measureQuotations(page, sentences),
    measureStatistics(sentences, words),
    measureFluency(sentences),
    measureEaseOfUnderstanding(sentences, page.$("html").attr("lang")),
    measureAuthority(sentences),
    measureTechnicalTerms(page, sentences),
  ];
  const score = clamp(signals.reduce((sum, s) => sum + s.score * s.weight, 0));
  return { score, signals };
}

// Profile and share links are not sources.
const SOCIAL = /(^|\.)(facebook|twitter|x|linkedin|instagram|tiktok|pinterest|threads)\.(com|net)$/i;
const AUTHORITATIVE =
  /(\.gov|\.edu|\.ac\.[a-z]{2}|\.int|(^|\.)europa\.eu|(^|\.)(wikipedia|doi|arxiv|acm|ieee|nature|who|nih)\.org)$/i;
const CITATION_MARKERS = [
  /\[\d{1,3}\]/g,
  /\((?:[A-Z][A-Za-z'-]+(?: et al\.?| (?:and|&) [A-Z][A-Za-z'-]+)?),? (?:19|20)\d{2}[a-z]?\)/g,
  /\baccording to\b/gi,
  /\bsources?:/gi,
];

const LINK_TAGS = tagSet("a");
const TERM_TAGS = tagSet("code abbr dfn kbd");
const ATTRIBUTION_TAGS = tagSet("cite footer figcaption");
const FIGCAPTION = tagSet("figcaption");

/** Links inside the main content, leaving out navigation and page chrome. */
function listContentLinks(page: ParsedPage): URL[] {
  const { el, selector } = findMainRoot(page);
  if (!el) return [];
  const { $ } = page;
  const isChrome = (a: Element) => {
    if ($(a).closest("nav, aside, [role=navigation]").length) return true;
    // Only a body-scoped page has site-wide header/footer inside its root.
    const band = $(a).closest("header, footer");
    return selector === "body" && band.length > 0 && band.closest("article, main, section").length === 0;
  };
  return findDescendants(el, LINK_TAGS, (a) => a.attribs.href !== undefined)
    .filter((a) => !isChrome(a))
    .flatMap((a: Element) => {
      try {
        const url = new URL(a.attribs.href ?? "", page.url);
        return url.protocol === "http:" || url.protocol === "https:" ? [url] : [];
      } catch {
        return [];
      }
    });
}

function measureCitations(page: ParsedPage, words: number): GeoSignal {
  const external = listContentLinks(page).filter(
    (u) => !isSameSite(u, page.url) && !SOCIAL.test(u.hostname) && !/share|intent\/tweet/i.test(u.pathname),
  );
  const domains = [...new Set(external.map((u) => u.hostname.replace(/^www\./, "")))];
  const authoritative = domains.filter((d) => AUTHORITATIVE.test(d));
  const text = extractBlocks(page)
    .map((b) => b.text)
    .join("\n");
  const markers =
    CITATION_MARKERS.reduce((n, re) => n + (text.match(re)?.length ?? 0), 0) +
    page.$("main cite, article cite, body cite").length;
  const target = Math.min(5, Math.max(2, Math.ceil(words / 400)));
  const score = (100 * (domains.length + 0.5 * Math.min(markers, target))) / target;
  const evidence = [
    `${plural(domains.length, "external source domain")} linked from the content${authoritative.length ? ` (${authoritative.length} authoritative)` : ""}`,
    `${plural(markers, "citation marker")} (footnotes, "according to", author-year, <cite>)`,
    ...domains.slice(0, 6),
  ];
  const recommendation =
    score >= 80
      ? "Sources are cited; keep linking claims to primary sources so engines can verify and attribute them."
      : `Cite sources for your claims: link ${target} or more reputable primary sources (studies, official data, standards) inline where each claim is made, and name them ("according to …").`;
  return signal("citations", score, recommendation, evidence);
}

const ATTRIBUTION =
  /\b(said|says|say|explains?|explained|notes?|noted|wrote|writes|told|adds?|added|stated|states|according to|recalls?|argues?|argued|comments?|commented)\b|[—–-]\s*\p{Lu}\p{L}+/u;

// Two attributed quotations already score 100; reading more only lets a page of thousands of nested quotes
// cost quadratic time (each reads its parent's whole text).
const MAX_QUOTE_ELEMENTS = 100;

function measureQuotations(page: ParsedPage, sentences: string[]): GeoSignal {
  const { $ } = page;
  const evidence: string[] = [];
  let points = 0;
  $("blockquote")
    .slice(0, MAX_QUOTE_ELEMENTS)
    .each((_, el) => {
      const q = $(el);
      const attributed =
        q.attr("cite") !== undefined ||
        findDescendants(el, ATTRIBUTION_TAGS).length > 0 ||
        q
          .closest("figure")
          .toArray()
          .some((figure) => findDescendants(figure, FIGCAPTION).length > 0) ||
        /[—–]\s*\p{Lu}/u.test(textOf(el));
      points += attributed ? 1 : 0.5;
      evidence.push(`blockquote${attributed ? " (attributed)" : ""}: ${textOf(el)}`);
    });
  $("q")
    .slice(0, MAX_QUOTE_ELEMENTS)
    .each((_, el) => {
      const attributed = $(el).attr("cite") !== undefined || ATTRIBUTION.test(textOf(el.parent ?? el));
      points += attributed ? 1 : 0.5;
      evidence.push(`<q>${attributed ? " (attributed)" : ""}: ${textOf(el)}`);
    });
  for (const sentence of sentences) {
    for (const [quoted, inner] of findQuotedRuns(sentence)) {
      if (countWords(inner) < 4) continue;
      const attributed = ATTRIBUTION.test(sentence.replace(quoted, " "));
      points += attributed ? 1 : 0.5;
      evidence.push(`quoted${attributed ? " (attributed)" : ""}: ${sentence}`);
    }
  }
  const score = (points / 2) * 100;
  const recommendation =
    score >= 80
      ? "The page quotes people by name; keep quotations relevant and attributed."
      : "Add quotations from named experts, customers or primary sources (a <blockquote> with <cite>, or “…”, said Name). Attributed quotes were among the most effective GEO methods.";
  return signal("quotations", score, recommendation, evidence.length ? evidence : ["no quotations found"]);
}

// Each number pattern starts only where a run of digits starts (`\b` or a look-behind): unanchored `\d+` retried
// from every digit of a long run, quadratic on a page of digits.
const QUOTE_OPENERS = new Set(["“", '"']);
const QUOTE_CLOSERS = new Set(["”", '"']);

/**
 * Quoted passages of 20–400 characters as [with quotes, inside], as `/[“"]([^”"]{20,400})[”"]/g` finds them,
 * but in linear time: that regex read up to 400 characters after every opening quote of a run of quotes.
 */
function findQuotedRuns(sentence: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  let nextCloser = -1;
  for (let open = 0; open < sentence.length; open++) {
    if (!QUOTE_OPENERS.has(sentence[open]!)) continue;
    if (nextCloser <= open) {
      nextCloser = open + 1;
      while (nextCloser < sentence.length && !QUOTE_CLOSERS.has(sentence[nextCloser]!)) nextCloser++;
    }
    if (nextCloser >= sentence.length) break;
    const length = nextCloser - open - 1;
    if (length < 20 || length > 400) continue;
    found.push([sentence.slice(open, nextCloser + 1), sentence.slice(open + 1, nextCloser)]);
    open = nextCloser;
  }
  return found;
}

const STATISTIC = [
  /(?<!\d)\d+(?:[.,]\d+)?\s?(?:%|percent\b|per cent\b|percentage points?)/i,
  /[$€£¥]\s?\d/,
  /\b\d+(?:[.,]\d+)?\s?(?:million|billion|trillion|thousand|bn)\b/i,
  /\b\d+(?:[.,]\d+)?\s?(?:x|times)\b/i,
  /\b\d+(?:[.,]\d+)?\s?(?:ms|milliseconds|seconds|minutes|hours|days|weeks|months|years|kg|mg|km|cm|mm|miles|lbs?|mb|gb|tb|kb|kwh|mph|°[cf]|users|customers|people|respondents|participants|companies|businesses|sites|websites|pages|visits|visitors|downloads|orders|employees|countries)\b/i,
  /\b(?:in|since|by|from|during|as of|until)\s+(?:19|20)\d{2}\b/i,
  /\b\d+\s?(?:out of|in every|of every)\s?\d+\b/i,
];

function measureStatistics(sentences: string[], words: number): GeoSignal {
  const withStats = sentences.filter((s) => STATISTIC.some((re) => re.test(s)));
  const target = Math.min(10, Math.max(3, Math.ceil(words / 150)));
  const score = (100 * withStats.length) / target;
  const recommendation =
    score >= 80
      ? "The page backs its points with numbers; keep statistics current and sourced."
      : `Add concrete statistics (percentages, amounts, dates, measured results) to support claims; aim for about ${target} for a page this long, each with its source.`;
  return signal("statistics", score, recommendation, [
    `${plural(withStats.length, "sentence")} with statistics (target ${target})`,
    ...withStats,
  ]);
}

function measureFluency(sentences: string[]): GeoSignal {
  if (sentences.length < 3) {
    return signal(
      "fluency",
      0,
      "There is too little running prose to judge fluency; write the content as full sentences and paragraphs.",
      [`${plural(sentences.length, "sentence")}`],
    );
  }
  const lengths = sentences.map(countWords);
  const avg = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  const long = lengths.filter((n) => n > 30).length / lengths.length;
  const openers = sentences.map((s) => listWords(s)[0]?.toLowerCase() ?? "");
  const repeats =
    openers.filter((w, i) => i > 0 && w !== "" && w === openers[i - 1]).length /
    Math.max(1, openers.length - 1);
  const score = 100 - Math.max(0, avg - 20) * 4 - Math.max(0, 8 - avg) * 6 - long * 150 - repeats * 50;
  const evidence = [
    `average sentence ${avg.toFixed(1)} words`,
    `${Math.round(long * 100)}% of sentences over 30 words`,
    `${Math.round(repeats * 100)}% of sentences open with the previous sentence's first word`,
  ];
  const recommendation =
    score >= 80
      ? "Prose flows well; keep sentences varied and mostly under 25 words."
      : "Improve fluency: split sentences over 30 words, join choppy fragments, and vary how sentences begin.";
  return signal("fluency", score, recommendation, evidence);
}

function measureEaseOfUnderstanding(sentences: string[], lang: string | undefined): GeoSignal {
  const r = measureReadability(sentences);
  const english = !lang || lang.toLowerCase().startsWith("en");
  const evidence = [
    `Flesch reading ease ${r.fleschReadingEase}, grade ${r.gradeLevel}, ${r.words} words measured`,
  ];
  if (!english) evidence.push(`page language "${lang}": the Flesch formula is calibrated for English`);
  if (r.words === 0) {
    return signal(
      "easy-to-understand",
      0,
      "No running prose to measure; explain the topic in plain sentences.",
      evidence,
    );
  }
  const score = (r.fleschReadingEase / 65) * 100;
  const recommendation =
    score >= 80
      ? "The language is plain; keep explaining terms and using short words."
      : "Simplify: shorter sentences, common words, one idea per sentence, and explain jargon the first time it appears (target Flesch 60+).";
  return signal("easy-to-understand", score, recommendation, evidence);
}

const HEDGES =
  /\b(might|maybe|perhaps|possibly|probably|arguably|somewhat|presumably|apparently|supposedly|hopefully|seems?|seemed|appears? to|could be|may be|sort of|kind of|i think|we think|i believe|we believe|i guess|not sure|it is possible)\b/gi;
const AUTHORITY =
  /\b(research|studies|study|survey|data|evidence|experiment|measured|tested|analy[sz]ed|found|shows?|showed|demonstrat\w+|confirm\w*|proven|peer-reviewed|published|certified|according to)\b/gi;

function measureAuthority(sentences: string[]): GeoSignal {
  const text = sentences.join(" ");
  const words = Math.max(1, countWords(text));
  const hedges = text.match(HEDGES) ?? [];
  const markers = text.match(AUTHORITY) ?? [];
  const hedgeRate = (hedges.length / words) * 100;
  const authRate = (markers.length / words) * 100;
  if (sentences.length === 0) {
    return signal(
      "authoritative",
      0,
      "No running prose to judge; state your expertise and findings in full sentences.",
      [],
    );
  }
  const score = 70 + 15 * Math.min(authRate, 2) - 30 * hedgeRate;
  const evidence = [
    `${plural(hedges.length, "hedging phrase")} (${hedgeRate.toFixed(1)} per 100 words): ${[...new Set(hedges.map((h) => h.toLowerCase()))].slice(0, 8).join(", ") || "none"}`,
    `${plural(markers.length, "evidence marker")} (${authRate.toFixed(1)} per 100 words): ${[...new Set(markers.map((m) => m.toLowerCase()))].slice(0, 8).join(", ") || "none"}`,
  ];
  const recommendation =
    score >= 80
      ? "The tone is confident and evidence-based; keep claims backed by what you measured or sourced."
      : "Write with more authority: replace hedges (might, perhaps, seems) with direct statements where the facts allow, and say what your claims rest on (our tests, the data, the study).";
  return signal("authoritative", score, recommendation, evidence);
}

const COMMON_CAPS = new Set([
  "I",
  "A",
  "OK",
  "AM",
  "PM",
  "TV",
  "FAQ",
  "USA",
  "US",
  "UK",
  "EU",
  "CEO",
  "THE",
  "AND",
]);

// A whole run of letters and hyphens, then a version ("HTTP/1.1", "TLS 1.3", "Node v24.1"); or "HTTP/2".
const VERSIONED = /(?<![A-Za-z-])([A-Za-z-]+)((?:\/| v?)\d+(?:\.\d+)+)\b|\b[A-Z][A-Za-z]*\/\d\b/g;
const WORD_CHAR = /\w/;
const LETTER = /[A-Za-z]/;

/**
 * Names with versions, as `\b[A-Za-z][A-Za-z-]*(?:\/| v?)\d+(?:\.\d+)+\b|\b[A-Z][A-Za-z]*\/\d\b` finds them.
 * That pattern retried a long "a-a-a-…" from every letter (each starts a word), quadratic; this one reads each
 * run of letters and hyphens once and then takes the name from its first letter that starts a word.
 */
function findVersionedNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(VERSIONED)) {
    const run = m[1];
    if (run === undefined) {
      names.push(m[0]);
      continue;
    }
    for (let i = 0; i < run.length; i++) {
      if (!LETTER.test(run[i]!)) continue;
      const before = i === 0 ? (text[m.index - 1] ?? "") : run[i - 1]!;
      if (WORD_CHAR.test(before)) continue;
      names.push(run.slice(i) + m[2]);
      break;
    }
  }
  return names;
}

function measureTechnicalTerms(page: ParsedPage, sentences: string[]): GeoSignal {
  const text = sentences.join(" ");
  const words = Math.max(1, countWords(text));
  const terms = new Set<string>();
  for (const m of text.matchAll(/\b[A-Z][A-Z0-9]{1,5}s?\b/g))
    if (!COMMON_CAPS.has(m[0].replace(/s$/, ""))) terms.add(m[0].replace(/s$/, ""));
  for (const term of findVersionedNames(text)) terms.add(term);
  const { el } = findMainRoot(page);
  if (el) {
    for (const node of findDescendants(el, TERM_TAGS)) {
      const t = textOf(node);
      if (t && t.length <= 40) terms.add(t);
    }
  }
  const density = (terms.size / words) * 100;
  const score = (density / 1.5) * 100;
  const recommendation =
    score >= 80
      ? "The page uses the field's precise terminology; keep defining terms where first used."
      : "Use the precise technical terms of your field (standards, product and protocol names, units), defining each on first use; it helps engines match expert queries.";
  return signal("technical-terms", score, recommendation, [
    `${plural(terms.size, "distinct technical term")} (${density.toFixed(1)} per 100 words)`,
    ...(terms.size ? [[...terms].slice(0, 15).join(", ")] : []),
  ]);
}
