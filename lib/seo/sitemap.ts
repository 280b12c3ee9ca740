import { promisify } from "node:util";
import zlib from "node:zlib";
import * as cheerio from "cheerio";
import { FetchError } from "@/lib/fetch/errors";
import type { GuardedFetch } from "@/lib/fetch/types";
import { fetchRobotsTxt, type Robots } from "./robots";

const gunzip = promisify(zlib.gunzip);

/** sitemaps.org: at most 50 000 URLs and 50 MB uncompressed per file. */
const SITEMAP_MAX_URLS_PER_FILE = 50_000;
const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
const DEFAULTS = { maxUrls: 50_000, maxSitemaps: 25, maxDepth: 2 };

interface SitemapUrl {
  loc: string;
  lastmod?: string;
  changefreq?: string;
  priority?: number;
}

interface SitemapIssue {
  /** The sitemap the issue is in. */
  sitemap: string;
  severity: "error" | "warning";
  message: string;
}

/** The formats sitemaps.org accepts: the XML protocol, RSS 2.0 and Atom 1.0 feeds, and a plain text list. */
const SITEMAP_KINDS = ["urlset", "sitemapindex", "rss", "atom", "text"] as const;

export interface ParsedSitemap {
  kind: (typeof SITEMAP_KINDS)[number] | "invalid";
  /** Page URLs of a urlset, a feed or a text sitemap. */
  urls: SitemapUrl[];
  /** Child sitemap URLs of a sitemapindex. */
  sitemaps: string[];
  issues: SitemapIssue[];
}

interface SitemapSource {
  url: string;
  /** Where the sitemap was learnt of. */
  from: "robots" | "default" | "index";
  status: number | null;
  kind: ParsedSitemap["kind"] | "unreachable";
  urlCount: number;
}

export interface SitemapReport {
  sources: SitemapSource[];
  /** Page URLs from every urlset, deduplicated, in discovery order. */
  urls: SitemapUrl[];
  issues: SitemapIssue[];
  /** A bound (URLs, sitemap files or nesting depth) stopped the walk early. */
  truncated: boolean;
}

/**
 * Parses one sitemap in any format sitemaps.org accepts: XML (urlset or sitemapindex), an RSS 2.0 or Atom 1.0 feed
 * (each item's link; pubDate / updated as lastmod), or a text file of one URL per line. `sitemapUrl` resolves an
 * Atom feed's relative links and names issues.
 */
export function parseSitemap(body: string, sitemapUrl: string): ParsedSitemap {
  const text = body.replace(/^\uFEFF/, "");
  if (/^\s*</.test(text)) return parseXmlSitemap(text, sitemapUrl);
  return parseTextSitemap(text, sitemapUrl);
}

function newResult(sitemapUrl: string) {
  const result: ParsedSitemap = { kind: "invalid", urls: [], sitemaps: [], issues: [] };
  const issue = (severity: SitemapIssue["severity"], message: string) =>
    result.issues.push({ sitemap: sitemapUrl, severity, message });
  const host = safeHost(sitemapUrl);
  /** Warns of a listed URL on another host than the sitemap's. */
  const checkHost = (url: URL) => {
    if (host && url.host !== host) {
      issue("warning", `${url.href} is on another host than the sitemap; crawlers may ignore it.`);
    }
  };
  /** Reports a file over the protocol's 50,000 entries. */
  const checkCount = (count: number, what: string) => {
    if (count > SITEMAP_MAX_URLS_PER_FILE) {
      issue("error", `${count} ${what}; a sitemap may list at most ${SITEMAP_MAX_URLS_PER_FILE}.`);
    }
  };
  return { result, issue, checkHost, checkCount };
}

function parseXmlSitemap(xml: string, sitemapUrl: string): ParsedSitemap {
  const { result, issue, checkHost, checkCount } = newResult(sitemapUrl);
  const $ = cheerio.load(xml, { xml: true });
  const root = $.root()
    .children()
    .filter((_, el) => el.type === "tag")
    .get(0);
  const rootName = root && "name" in root ? localName(root.name) : undefined;
  if (rootName === "rss" || rootName === "feed") return parseFeed($, root!, rootName, sitemapUrl);
  if (rootName !== "urlset" && rootName !== "sitemapindex") {
    issue(
      "error",
      "Not a sitemap: the root element must be <urlset> or <sitemapindex> (or <rss> or <feed> for a feed).",
    );
    return result;
  }
  result.kind = rootName;
  const entries = $(root)
    .children()
    .filter((_, el) => localName(el.name) === (rootName === "urlset" ? "url" : "sitemap"));
  checkCount(entries.length, "entries");
  entries.each((index, el) => {
    const fields = new Map<string, string>();
    for (const child of $(el).children().get()) fields.set(localName(child.name), $(child).text().trim());
    const loc = fields.get("loc");
    if (!loc) return void issue("error", `Entry ${index + 1} has no <loc>.`);
    const parsed = parseAbsoluteUrl(loc);
    if (!parsed) return void issue("error", `<loc> "${loc.slice(0, 200)}" is not an absolute http(s) URL.`);
    checkHost(parsed);
    if (rootName === "sitemapindex") {
      result.sitemaps.push(parsed.href);
      return;
    }
    const entry: SitemapUrl = { loc: parsed.href };
    const lastmod = fields.get("lastmod");
    if (lastmod) {
      if (isW3cDate(lastmod)) entry.lastmod = lastmod;
      else issue("warning", `<lastmod> "${lastmod}" of ${parsed.href} is not a W3C date.`);
    }
    const changefreq = fields.get("changefreq");
    if (changefreq) entry.changefreq = changefreq;
    const priority = fields.get("priority");
    if (priority) {
      const value = Number(priority);
      if (Number.isFinite(value) && value >= 0 && value <= 1) entry.priority = value;
      else issue("warning", `<priority> "${priority}" of ${parsed.href} is not between 0.0 and 1.0.`);
    }
    result.urls.push(entry);
  });
  if (entries.length === 0) issue("warning", `The ${rootName} is empty.`);
  return result;
}

/**
 * An RSS 2.0 feed (`<rss><channel><item><link>`, `<pubDate>`) or an Atom 1.0 feed (`<feed><entry><link href>`,
 * `<updated>`). sitemaps.org reads only these two fields; a feed usually lists only the newest pages.
 */
function parseFeed(
  $: cheerio.CheerioAPI,
  root: Parameters<cheerio.CheerioAPI>[0],
  rootName: "rss" | "feed",
  sitemapUrl: string,
): ParsedSitemap {
  const { result, issue, checkHost, checkCount } = newResult(sitemapUrl);
  result.kind = rootName === "rss" ? "rss" : "atom";
  const children = (el: Parameters<cheerio.CheerioAPI>[0], name: string) =>
    $(el)
      .children()
      .filter((_, c) => localName(c.name) === name);
  const items =
    rootName === "rss" ? children(children(root, "channel").get(0) ?? root, "item") : children(root, "entry");
  const itemName = rootName === "rss" ? "<item>" : "<entry>";
  checkCount(items.length, "entries");
  items.each((index, el) => {
    let link: string | undefined;
    if (rootName === "rss") link = children(el, "link").first().text().trim() || undefined;
    else {
      const links = children(el, "link").get();
      const alternate = links.find((l) => ($(l).attr("rel") ?? "alternate") === "alternate");
      link = alternate ? $(alternate).attr("href")?.trim() : undefined;
    }
    if (!link) return void issue("error", `${itemName} ${index + 1} has no link.`);
    let resolved: URL | null = null;
    try {
      resolved = parseAbsoluteUrl(new URL(link, sitemapUrl).href);
    } catch {
      resolved = null;
    }
    if (!resolved) return void issue("error", `Link "${link.slice(0, 200)}" is not an http(s) URL.`);
    checkHost(resolved);
    const entry: SitemapUrl = { loc: resolved.href };
    const modified = children(el, rootName === "rss" ? "pubdate" : "updated")
      .first()
      .text()
      .trim();
    if (modified) {
      const date = rootName === "feed" || isW3cDate(modified) ? modified : rfc822ToIso(modified);
      if (date && isW3cDate(date)) entry.lastmod = date;
      else issue("warning", `The date "${modified.slice(0, 60)}" of ${resolved.href} could not be read.`);
    }
    result.urls.push(entry);
  });
  if (items.length === 0) issue("warning", `The feed has no ${itemName}.`);
  return result;
}

/** An RFC 822 date as RSS writes it ("Tue, 10 Jun 2025 04:00:00 GMT") as an ISO 8601 UTC date-time. */
function rfc822ToIso(value: string): string | null {
  if (!/^(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{2,4}\s+\d{1,2}:\d{2}/.test(value)) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().replace(".000Z", "Z");
}

/** sitemaps.org's text format: one absolute URL per line, nothing else, UTF-8. */
function parseTextSitemap(text: string, sitemapUrl: string): ParsedSitemap {
  const { result, issue, checkHost, checkCount } = newResult(sitemapUrl);
  const lines = text.split(/\r\n|\r|\n/);
  const bad: number[] = [];
  let entries = 0;
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    entries++;
    const parsed = parseAbsoluteUrl(line);
    if (!parsed || /\s/.test(line)) {
      bad.push(index + 1);
      return;
    }
    checkHost(parsed);
    result.urls.push({ loc: parsed.href });
  });
  if (result.urls.length === 0) {
    issue("error", "Not a sitemap: neither XML nor a text file of one URL per line.");
    return result;
  }
  result.kind = "text";
  checkCount(entries, "lines");
  if (bad.length > 0) {
    const shown = bad.slice(0, 10).join(", ");
    issue(
      "error",
      `${bad.length === 1 ? "Line" : "Lines"} ${shown}${bad.length > 10 ? ` and ${bad.length - 10} more` : ""} ${bad.length === 1 ? "is" : "are"} not an absolute http(s) URL; a text sitemap holds nothing else.`,
    );
  }
  return result;
}

/**
 * Finds and reads a site's sitemaps: the robots.txt Sitemap lines, else /sitemap.xml; nested
 * indexes followed breadth first within the bounds. Problems are reported, not thrown, except
 * a cancelled signal.
 */
export async function findSitemaps(
  fetch: GuardedFetch,
  siteUrl: string,
  options: {
    robots?: Robots;
    signal?: AbortSignal;
    maxUrls?: number;
    maxSitemaps?: number;
    maxDepth?: number;
  } = {},
): Promise<SitemapReport> {
  const { maxUrls, maxSitemaps, maxDepth } = { ...DEFAULTS, ...options };
  const robots = options.robots ?? (await fetchRobotsTxt(fetch, siteUrl, { signal: options.signal })).robots;
  const report: SitemapReport = { sources: [], urls: [], issues: [], truncated: false };
  const queue: { url: string; from: SitemapSource["from"]; depth: number }[] =
    robots.sitemaps.length > 0
      ? robots.sitemaps.map((url) => ({ url, from: "robots" as const, depth: 0 }))
      : [{ url: new URL("/sitemap.xml", siteUrl).href, from: "default" as const, depth: 0 }];
  const seenSitemaps = new Set(queue.map((q) => q.url));
  const seenUrls = new Set<string>();

  for (let next = queue.shift(); next; next = queue.shift()) {
    if (report.urls.length >= maxUrls) {
      report.truncated = true;
      break;
    }
    if (report.sources.length >= maxSitemaps) {
      report.truncated = true;
      report.issues.push({
        sitemap: next.url,
        severity: "warning",
        message: `Not read: over ${maxSitemaps} sitemaps.`,
      });
      break;
    }
    const source: SitemapSource = {
      url: next.url,
      from: next.from,
      status: null,
      kind: "unreachable",
      urlCount: 0,
    };
    report.sources.push(source);
    const loaded = await loadSitemap(fetch, next.url, options.signal);
    source.status = loaded.status;
    if ("error" in loaded) {
      report.issues.push({ sitemap: next.url, severity: "error", message: loaded.error });
      continue;
    }
    const parsed = parseSitemap(loaded.xml, next.url);
    source.kind = parsed.kind;
    report.issues.push(...parsed.issues);
    for (const child of parsed.sitemaps) {
      if (seenSitemaps.has(child)) continue;
      seenSitemaps.add(child);
      if (next.depth + 1 > maxDepth) {
        report.truncated = true;
        report.issues.push({
          sitemap: child,
          severity: "warning",
          message: `Not read: nested deeper than ${maxDepth}.`,
        });
        continue;
      }
      queue.push({ url: child, from: "index", depth: next.depth + 1 });
    }
    for (const entry of parsed.urls) {
      const key = normaliseForListing(entry.loc);
      if (seenUrls.has(key)) continue;
      if (report.urls.length >= maxUrls) {
        report.truncated = true;
        break;
      }
      seenUrls.add(key);
      report.urls.push(entry);
      source.urlCount++;
    }
  }
  return report;
}

/** True when `url` is listed in the report's sitemaps (ignoring fragment and a trailing slash). */
export function isUrlListed(report: Pick<SitemapReport, "urls">, url: string): boolean {
  const wanted = normaliseForListing(url);
  return report.urls.some((entry) => normaliseForListing(entry.loc) === wanted);
}

async function loadSitemap(
  fetch: GuardedFetch,
  url: string,
  signal: AbortSignal | undefined,
): Promise<{ status: number; xml: string } | { status: number | null; error: string }> {
  try {
    const res = await fetch(url, { signal, maxBytes: SITEMAP_MAX_BYTES, timeoutMs: 20_000 });
    if (res.status < 200 || res.status >= 300) return { status: res.status, error: `HTTP ${res.status}` };
    let body = res.body;
    // A .gz sitemap arrives as a gzip file, not as a Content-Encoding the fetcher undid.
    if (body[0] === 0x1f && body[1] === 0x8b) {
      try {
        body = await gunzip(body, { maxOutputLength: SITEMAP_MAX_BYTES });
      } catch {
        return {
          status: res.status,
          error: "The gzip file could not be decompressed (corrupt or over 50 MB).",
        };
      }
      return { status: res.status, xml: body.toString("utf8") };
    }
    return { status: res.status, xml: res.text() };
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof FetchError) return { status: null, error: err.message };
    throw err;
  }
}

function normaliseForListing(url: string): string {
  const parsed = parseAbsoluteUrl(url);
  if (!parsed) return url;
  if (parsed.pathname.length > 1 && parsed.pathname.endsWith("/"))
    parsed.pathname = parsed.pathname.slice(0, -1);
  return parsed.href;
}

function parseAbsoluteUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.hash = "";
    return url;
  } catch {
    return null;
  }
}

function safeHost(url: string): string | null {
  return parseAbsoluteUrl(url)?.host ?? null;
}

function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1).toLowerCase();
}

/** W3C Datetime: YYYY, YYYY-MM, YYYY-MM-DD, or a date with hh:mm[:ss[.s]] and a zone. */
function isW3cDate(value: string): boolean {
  return /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/.test(value);
}
