import { promisify } from "node:util";
import zlib from "node:zlib";
import * as cheerio from "cheerio";
import { FetchError } from "@/lib/fetch/errors";
import type { GuardedFetch } from "@/lib/fetch/types";
import { fetchRobotsTxt, type Robots } from "./robots";

const gunzip = promisify(zlib.gunzip);

/** sitemaps.org: at most 50 000 URLs and 50 MB uncompressed per file. */
export const SITEMAP_MAX_URLS_PER_FILE = 50_000;
const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
const DEFAULTS = { maxUrls: 50_000, maxSitemaps: 25, maxDepth: 2 };

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
  changefreq?: string;
  priority?: number;
}

export interface SitemapIssue {
  /** The sitemap the issue is in. */
  sitemap: string;
  severity: "error" | "warning";
  message: string;
}

export interface ParsedSitemap {
  kind: "urlset" | "sitemapindex" | "invalid";
  /** Page URLs of a urlset. */
  urls: SitemapUrl[];
  /** Child sitemap URLs of a sitemapindex. */
  sitemaps: string[];
  issues: SitemapIssue[];
}

export interface SitemapSource {
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

/** Parses one sitemap document (urlset or sitemapindex). `sitemapUrl` resolves nothing; it names issues. */
export function parseSitemapXml(xml: string, sitemapUrl: string): ParsedSitemap {
  const result: ParsedSitemap = { kind: "invalid", urls: [], sitemaps: [], issues: [] };
  const issue = (severity: SitemapIssue["severity"], message: string) =>
    result.issues.push({ sitemap: sitemapUrl, severity, message });
  const $ = cheerio.load(xml, { xml: true });
  const root = $.root().children().get(0);
  const rootName = root && "name" in root ? localName(root.name) : undefined;
  if (rootName !== "urlset" && rootName !== "sitemapindex") {
    issue("error", "Not a sitemap: the root element must be <urlset> or <sitemapindex>.");
    return result;
  }
  result.kind = rootName;
  const host = safeHost(sitemapUrl);
  const entries = $(root)
    .children()
    .filter((_, el) => localName(el.name) === (rootName === "urlset" ? "url" : "sitemap"));
  if (entries.length > SITEMAP_MAX_URLS_PER_FILE) {
    issue("error", `${entries.length} entries; a sitemap may list at most ${SITEMAP_MAX_URLS_PER_FILE}.`);
  }
  entries.each((index, el) => {
    const fields = new Map<string, string>();
    for (const child of $(el).children().get()) fields.set(localName(child.name), $(child).text().trim());
    const loc = fields.get("loc");
    if (!loc) return void issue("error", `Entry ${index + 1} has no <loc>.`);
    const parsed = parseAbsoluteUrl(loc);
    if (!parsed) return void issue("error", `<loc> "${loc.slice(0, 200)}" is not an absolute http(s) URL.`);
    if (host && parsed.host !== host) {
      issue("warning", `${parsed.href} is on another host than the sitemap; crawlers may ignore it.`);
    }
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
    const parsed = parseSitemapXml(loaded.xml, next.url);
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
