import { ToolError } from "@/lib/errors";
import { FetchError } from "@/lib/fetch/errors";
import { resolveUserAgent } from "@/lib/fetch/guarded-fetch";
import type { GuardedFetch, GuardedResponse } from "@/lib/fetch/types";
import { extractProductToken, fetchRobotsTxt, matchRobots, type RobotsFetchResult } from "@/lib/seo/robots";
import { findSitemaps, type SitemapReport } from "@/lib/seo/sitemap";
import { extractPage, type PageFacts } from "./extract-page";

const CRAWL_DEFAULT_PAGES = 50;
const CRAWL_MAX_PAGES = 200;
const DEFAULTS = {
  maxPages: CRAWL_DEFAULT_PAGES,
  timeLimitMs: 60_000,
  concurrency: 4,
  pageTimeoutMs: 15_000,
};
/** Obviously not HTML: skipped without spending a fetch on them. */
const NON_HTML_EXTENSION =
  /\.(pdf|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4a|wav|ogg|webm|mov|avi|zip|gz|tgz|rar|7z|dmg|exe|msi|apk|css|js|mjs|json|xml|rss|atom|txt|csv|xlsx?|docx?|pptx?|woff2?|ttf|eot)$/i;

export interface CrawledPage extends Omit<PageFacts, "links"> {
  /** The URL requested. */
  url: string;
  /** The URL that answered after redirects. */
  finalUrl: string;
  status: number;
  /** Same-host links found on the page (normalised). */
  links: string[];
}

interface SkippedUrl {
  url: string;
  reason: "robots" | "non-html" | "duplicate" | "fetch-error" | "too-complex";
  detail?: string;
  /** HTTP status, for URLs that were fetched. */
  status?: number;
}

export interface CrawlOptions {
  /** Pages fetched at most (default 50, capped at 200). */
  maxPages?: number;
  /** Wall-clock budget for the whole crawl; no new fetch starts after it. Default 60 s. */
  timeLimitMs?: number;
  concurrency?: number;
  signal?: AbortSignal;
  /** The robots.txt product token obeyed; default: the fetcher's user agent. */
  userAgent?: string;
}

export interface CrawlResult {
  startUrl: string;
  /** The start page after redirects; its host is the crawl's host. */
  siteUrl: string;
  /** `sitemap`: URLs came from the sitemaps; `links`: from following links breadth first. */
  discovery: "sitemap" | "links";
  /** HTML pages in discovery order (the start page first). */
  pages: CrawledPage[];
  skipped: SkippedUrl[];
  robots: RobotsFetchResult;
  sitemap: SitemapReport | null;
  /** The page or time budget ran out before every known URL was visited. */
  truncated: boolean;
  elapsedMs: number;
}

/** The start page is disallowed by robots.txt, so nothing was crawled. */
export class CrawlBlockedError extends Error {
  constructor(
    readonly url: string,
    readonly robots: RobotsFetchResult,
  ) {
    const why =
      robots.robots.mode === "disallow-all"
        ? `its robots.txt answered HTTP ${robots.status}, which means "crawl nothing" until it is fixed`
        : "its robots.txt disallows our crawler";
    super(`${url} was not crawled: ${why}.`);
    this.name = "CrawlBlockedError";
  }
}

/**
 * Crawls one site breadth first through the guarded fetcher: the start page, then the sitemap's
 * URLs, or the links found when there is no usable sitemap. Only the start page's host, only
 * what robots.txt allows, each URL once. A start page that cannot be fetched throws its FetchError.
 */
export async function crawlSite(
  fetch: GuardedFetch,
  startUrl: string,
  options: CrawlOptions = {},
): Promise<CrawlResult> {
  const started = Date.now();
  const opts = { ...DEFAULTS, ...options };
  const maxPages = Math.max(1, Math.min(opts.maxPages, CRAWL_MAX_PAGES));
  const deadline = started + opts.timeLimitMs;
  const token = extractProductToken(opts.userAgent ?? resolveUserAgent());
  const fetchOpts = (signal = opts.signal) => ({
    signal,
    timeoutMs: pageTimeout(deadline, opts.pageTimeoutMs),
  });

  let robots = await fetchRobotsTxt(fetch, startUrl, fetchOpts());
  // RFC 9309 forbids crawling when robots.txt is unreachable; when the whole host is, say so.
  if (robots.error) throw new FetchError(robots.error.code, robots.error.message, { url: robots.url });
  if (!matchRobots(robots.robots, token, startUrl).allowed) throw new CrawlBlockedError(startUrl, robots);
  const startResponse = await fetch(startUrl, fetchOpts());
  const siteUrl = startResponse.finalUrl;
  const host = new URL(siteUrl).hostname;
  if (new URL(siteUrl).origin !== new URL(startUrl).origin) {
    // Redirected to another origin (example.com → www.example.com): its robots.txt rules now.
    robots = await fetchRobotsTxt(fetch, siteUrl, fetchOpts());
  }

  const result: CrawlResult = {
    startUrl,
    siteUrl,
    discovery: "links",
    pages: [],
    skipped: [],
    robots,
    sitemap: null,
    truncated: false,
    elapsedMs: 0,
  };
  const seen = new Set<string>([normaliseUrl(startUrl), normaliseUrl(siteUrl)]);
  const queue: string[] = [];
  const order = new Map<string, number>([[startUrl, -1]]);
  let fetched = 1;

  /** Queues a same-host URL once; robots and file-type checks happen here so they cost no fetch. */
  const enqueue = (url: string) => {
    const key = normaliseUrl(url);
    if (seen.has(key) || new URL(url).hostname !== host) return;
    seen.add(key);
    if (!matchRobots(robots.robots, token, url).allowed)
      return void result.skipped.push({ url, reason: "robots" });
    if (NON_HTML_EXTENSION.test(new URL(url).pathname))
      return void result.skipped.push({ url, reason: "non-html" });
    order.set(url, order.size);
    queue.push(url);
  };
  const record = (url: string, res: GuardedResponse) => {
    if (!isHtml(res)) {
      const detail = res.headers["content-type"]?.[0];
      return void result.skipped.push({
        url,
        reason: "non-html",
        status: res.status,
        ...(detail ? { detail } : {}),
      });
    }
    const finalKey = normaliseUrl(res.finalUrl);
    if (finalKey !== normaliseUrl(url) && seen.has(finalKey) && url !== startUrl) {
      return void result.skipped.push({ url, reason: "duplicate", detail: res.finalUrl, status: res.status });
    }
    seen.add(finalKey);
    let extracted: ReturnType<typeof extractPage>;
    try {
      extracted = extractPage(res.text(), res.finalUrl);
    } catch (err) {
      // Markup past the parse limits: the start page fails the job (PAGE_TOO_COMPLEX); another is skipped.
      if (url === startUrl || !(err instanceof ToolError)) throw err;
      return void result.skipped.push({
        url,
        reason: "too-complex",
        detail: err.message,
        status: res.status,
      });
    }
    const { links, ...facts } = extracted;
    const sameHost = links.filter((link) => new URL(link).hostname === host);
    result.pages.push({ url, finalUrl: res.finalUrl, status: res.status, ...facts, links: sameHost });
    if (result.discovery === "links") for (const link of sameHost) enqueue(link);
  };

  if (startResponse.status < 200 || startResponse.status >= 300) {
    // An error page is no site to crawl; the caller decides what the status means.
    record(startUrl, startResponse);
    result.elapsedMs = Date.now() - started;
    return result;
  }
  const sitemap = await findSitemaps(fetch, siteUrl, {
    robots: robots.robots,
    signal: opts.signal,
    maxUrls: 5_000,
  });
  result.sitemap = sitemap;
  const fromSitemap = sitemap.urls.map((u) => u.loc).filter((loc) => new URL(loc).hostname === host);
  if (fromSitemap.length > 0) {
    result.discovery = "sitemap";
    // Shallow URLs first, so a large sitemap's budget goes to sections before deep archives.
    for (const url of sortByDepth(fromSitemap)) enqueue(url);
  }
  record(startUrl, startResponse);

  const active = new Set<Promise<void>>();
  for (;;) {
    while (
      active.size < opts.concurrency &&
      queue.length > 0 &&
      fetched < maxPages &&
      Date.now() < deadline
    ) {
      const url = queue.shift()!;
      fetched++;
      const task = visit(url).finally(() => active.delete(task));
      active.add(task);
    }
    if (active.size === 0) break;
    await Promise.race(active);
  }
  result.pages.sort((a, b) => (order.get(a.url) ?? 0) - (order.get(b.url) ?? 0));
  result.truncated = queue.length > 0;
  result.elapsedMs = Date.now() - started;
  return result;

  async function visit(url: string) {
    try {
      record(url, await fetch(url, fetchOpts()));
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      if (!(err instanceof FetchError)) throw err;
      result.skipped.push({ url, reason: "fetch-error", detail: `${err.code}: ${err.message}` });
    }
  }
}

/** The key URLs are deduplicated by: no fragment, no tracking parameters, no trailing slash. */
export function normaliseUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = "";
  for (const name of [...parsed.searchParams.keys()]) {
    if (/^(utm_\w+|gclid|fbclid|msclkid)$/i.test(name)) parsed.searchParams.delete(name);
  }
  if (parsed.pathname.length > 1 && parsed.pathname.endsWith("/"))
    parsed.pathname = parsed.pathname.slice(0, -1);
  return parsed.href;
}

function isHtml(res: GuardedResponse): boolean {
  const type = res.headers["content-type"]?.[0]?.toLowerCase();
  if (type) return type.includes("text/html") || type.includes("application/xhtml");
  return /^\s*(<!doctype html|<html)/i.test(res.body.subarray(0, 512).toString("utf8"));
}

function sortByDepth(urls: string[]): string[] {
  const depth = (url: string) => new URL(url).pathname.split("/").filter(Boolean).length;
  return urls
    .map((url, index) => ({ url, index, depth: depth(url) }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index)
    .map((e) => e.url);
}

function pageTimeout(deadline: number, pageTimeoutMs: number): number {
  return Math.max(1_000, Math.min(pageTimeoutMs, deadline - Date.now()));
}
