import type { Element } from "domhandler";
import { type Block, extractBlocks, isTextCapped, MAX_PAGE_TEXT_CHARS, textOf } from "./blocks";
import { clip, createCheck, plural } from "./check";
import { countWords, endsLikeSentence, measureReadability, type Readability, splitSentences } from "./text";
import type { Check, ParsedPage } from "./types";

const THIN_CONTENT_WORDS = 300;

export interface LinkCounts {
  internal: number;
  external: number;
  nofollow: number;
}

export interface ContentReport {
  wordCount: number;
  readability: Readability;
  images: { total: number; withoutAlt: number; decorative: number };
  links: LinkCounts;
  checks: Check[];
}

const PROSE_KINDS = new Set<Block["kind"]>(["paragraph", "list-item", "quote", "definition", "summary"]);

/** Sentences of running prose in the main content; menus, labels and table cells are not prose. */
export function listProseSentences(page: ParsedPage): string[] {
  return extractBlocks(page)
    .filter((b) => PROSE_KINDS.has(b.kind) && (endsLikeSentence(b.text) || countWords(b.text) >= 8))
    .flatMap((b) => splitSentences(b.text));
}

function countMainWords(page: ParsedPage): number {
  return extractBlocks(page).reduce((sum, b) => sum + countWords(b.text), 0);
}

/** Same site when the host matches, ignoring a leading "www.". */
export function isSameSite(a: URL, b: URL): boolean {
  const strip = (h: string) => h.toLowerCase().replace(/^www\./, "");
  return strip(a.hostname) === strip(b.hostname);
}

/** Resolved http(s) links of an element set, fragments dropped; mailto:, tel:, javascript: and same-page anchors skipped. */
export function resolveLinks(
  page: ParsedPage,
  selector = "body a[href]",
): Array<{ url: URL; rel: string; text: string }> {
  const out: Array<{ url: URL; rel: string; text: string }> = [];
  page.$(selector).each((_, node) => {
    const el = node as Element;
    const href = (el.attribs.href ?? "").trim();
    if (!href || href.startsWith("#")) return;
    let url: URL;
    try {
      url = new URL(href, page.url);
    } catch {
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return;
    url.hash = "";
    out.push({
      url,
      rel: (el.attribs.rel ?? "").toLowerCase(),
      text: textOf(el),
    });
  });
  return out;
}

export function countLinks(page: ParsedPage): LinkCounts {
  const internal = new Set<string>();
  const external = new Set<string>();
  let nofollow = 0;
  for (const link of resolveLinks(page)) {
    if (link.url.href === page.url.href) continue;
    (isSameSite(link.url, page.url) ? internal : external).add(link.url.href);
    if (/\b(nofollow|ugc|sponsored)\b/.test(link.rel)) nofollow++;
  }
  return { internal: internal.size, external: external.size, nofollow };
}

export function analyzeContent(page: ParsedPage): ContentReport {
  const wordCount = countMainWords(page);
  const readability = measureReadability(listProseSentences(page));
  const links = countLinks(page);
  const { $ } = page;
  const imgs = $("body img").toArray();
  const decorative = imgs.filter(
    (el) =>
      el.attribs.alt?.trim() === "" ||
      el.attribs.role === "presentation" ||
      el.attribs["aria-hidden"] === "true",
  );
  const withoutAlt = imgs.filter(
    (el) =>
      el.attribs.alt === undefined &&
      el.attribs.role !== "presentation" &&
      el.attribs["aria-hidden"] !== "true",
  );
  const lang = $("html").attr("lang")?.trim().toLowerCase();
  return {
    wordCount,
    readability,
    images: { total: imgs.length, withoutAlt: withoutAlt.length, decorative: decorative.length },
    links,
    checks: [
      checkWordCount(wordCount, isTextCapped(page)),
      checkReadability(readability, lang),
      checkImageAlt(
        imgs.length,
        withoutAlt.map((el) => `<img src="${clip(el.attribs.src ?? "", 100)}">`),
      ),
      checkLinks(links),
    ],
  };
}

function checkWordCount(words: number, capped: boolean): Check {
  const evidence = [`${words} words of main content`];
  if (capped) {
    evidence.push(
      `only the first ${MAX_PAGE_TEXT_CHARS.toLocaleString("en")} characters of text (and of each block) were analysed`,
    );
  }
  if (words < THIN_CONTENT_WORDS) {
    return createCheck(
      "content.word-count",
      "content",
      "fail",
      `Thin content: only ${words} words in the main content. Pages under ${THIN_CONTENT_WORDS} words rarely rank or get cited; answer the topic fully.`,
      evidence,
    );
  }
  return createCheck(
    "content.word-count",
    "content",
    "pass",
    `The main content has ${words} words.`,
    evidence,
  );
}

function checkReadability(r: Readability, lang: string | undefined): Check {
  const evidence = [
    `Flesch reading ease ${r.fleschReadingEase}, grade ${r.gradeLevel}`,
    `${r.sentences} sentences, ${r.words} words, ${r.averageSentenceLength} words per sentence`,
  ];
  if (lang && !lang.startsWith("en")) {
    return createCheck(
      "content.readability",
      "content",
      "pass",
      `Readability not scored: the Flesch formula is calibrated for English and the page is in "${lang}".`,
      evidence,
    );
  }
  if (r.words < 100) {
    return createCheck(
      "content.readability",
      "content",
      "pass",
      "Too little running prose (under 100 words) to measure readability reliably.",
      evidence,
    );
  }
  if (r.fleschReadingEase >= 60) {
    return createCheck(
      "content.readability",
      "content",
      "pass",
      `Plain English (Flesch ${r.fleschReadingEase}, about US grade ${Math.max(1, Math.round(r.gradeLevel))}).`,
      evidence,
    );
  }
  const advice = "Shorten sentences (aim for 15–20 words) and prefer common, shorter words.";
  if (r.fleschReadingEase >= 30) {
    return createCheck(
      "content.readability",
      "content",
      "warn",
      `Fairly hard to read (Flesch ${r.fleschReadingEase}; 60+ is plain English). ${advice}`,
      evidence,
    );
  }
  return createCheck(
    "content.readability",
    "content",
    "fail",
    `Very hard to read (Flesch ${r.fleschReadingEase}; 60+ is plain English). ${advice}`,
    evidence,
  );
}

function checkImageAlt(total: number, missing: string[]): Check {
  if (missing.length) {
    return createCheck(
      "content.image-alt",
      "content",
      "fail",
      `${plural(missing.length, "image has", "images have")} no alt attribute. Describe each informative image in alt text; use alt="" for decorative ones.`,
      missing,
    );
  }
  return createCheck(
    "content.image-alt",
    "content",
    "pass",
    total ? `Every image has an alt attribute (${plural(total, "image")}).` : "The page has no images.",
    [],
  );
}

function checkLinks(links: LinkCounts): Check {
  const evidence = [
    `${links.internal} internal, ${links.external} external, ${links.nofollow} nofollow/ugc/sponsored`,
  ];
  if (links.internal === 0) {
    return createCheck(
      "content.links",
      "content",
      "warn",
      "The page links to no other page of the site. Add internal links so crawlers and readers can reach related pages.",
      evidence,
    );
  }
  return createCheck(
    "content.links",
    "content",
    "pass",
    `${plural(links.internal, "internal link")} and ${plural(links.external, "external link")}.`,
    evidence,
  );
}
