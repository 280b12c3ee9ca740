import type * as cheerio from "cheerio";
import { loadHtml } from "@/lib/analysis/bounded-html";
import { findDescendants, tagSet } from "@/lib/analysis/dom";

interface PageHeading {
  level: 1 | 2 | 3;
  text: string;
}

/** What the crawler keeps of an HTML page. */
export interface PageFacts {
  title: string | null;
  metaDescription: string | null;
  /** og:site_name, the name a site gives itself. */
  siteName: string | null;
  /** og:type, e.g. "article" or "product". */
  ogType: string | null;
  headings: PageHeading[];
  /** Absolute canonical URL, when the page declares one. */
  canonical: string | null;
  /** The first substantial paragraph of the main content, shortened. */
  summary: string | null;
  wordCount: number;
  lang: string | null;
  /** A robots meta tag says noindex. */
  noindex: boolean;
  /** Absolute http(s) links to follow (rel=nofollow left out), fragment removed, in page order. */
  links: string[];
}

const SUMMARY_MAX_CHARS = 320;
const MIN_PARAGRAPH_CHARS = 40;
const BOILERPLATE = tagSet("nav header footer aside script style noscript template form");
const PARAGRAPH = tagSet("p");

export function extractPage(html: string, pageUrl: string): PageFacts {
  const $ = loadHtml(html);
  const meta = (key: string) => {
    const el = $("meta")
      .filter((_, m) => {
        const attrs = m.attribs;
        return (attrs.name ?? attrs.property ?? "").toLowerCase() === key;
      })
      .first();
    return clean(el.attr("content"));
  };
  const base = resolveUrl($("base[href]").attr("href") ?? "", pageUrl) ?? pageUrl;

  const headings: PageHeading[] = [];
  $("h1, h2, h3").each((_, el) => {
    const text = clean($(el).text());
    if (text) headings.push({ level: Number(el.tagName.slice(1)) as 1 | 2 | 3, text });
  });

  const canonicalHref = $("link[rel]")
    .filter((_, el) => (el.attribs.rel ?? "").toLowerCase().split(/\s+/).includes("canonical"))
    .first()
    .attr("href");

  const links: string[] = [];
  const seen = new Set<string>();
  $("a[href]").each((_, el) => {
    if ((el.attribs.rel ?? "").toLowerCase().split(/\s+/).includes("nofollow")) return;
    const url = resolveUrl(el.attribs.href ?? "", base);
    if (url && !seen.has(url)) {
      seen.add(url);
      links.push(url);
    }
  });

  const robotsMeta = [meta("robots"), meta("googlebot")].join(",").toLowerCase();
  const content = $("main").first().length
    ? $("main").first()
    : $("article").first().length
      ? $("article").first()
      : $("body");
  $(content.toArray().flatMap((el) => findDescendants(el, BOILERPLATE))).remove();
  const text = clean(content.text()) ?? "";

  return {
    title: clean($("title").first().text()),
    metaDescription: meta("description"),
    siteName: meta("og:site_name"),
    ogType: meta("og:type")?.toLowerCase() ?? null,
    headings,
    canonical: canonicalHref ? resolveUrl(canonicalHref, base) : null,
    summary: findSummary($, content),
    wordCount: text ? text.split(" ").length : 0,
    lang: clean($("html").attr("lang")),
    noindex: /\b(noindex|none)\b/.test(robotsMeta),
    links,
  };
}

function findSummary($: cheerio.CheerioAPI, content: ReturnType<cheerio.CheerioAPI>): string | null {
  let summary: string | null = null;
  for (const el of content.toArray().flatMap((root) => findDescendants(root, PARAGRAPH))) {
    const text = clean($(el).text());
    if (text && text.length >= MIN_PARAGRAPH_CHARS) {
      summary = text;
      break;
    }
  }
  return summary ? shorten(summary, SUMMARY_MAX_CHARS) : null;
}

/** Cuts at a word boundary and marks the cut. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

function clean(value: string | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim();
  return text ? text : null;
}

function resolveUrl(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
}
