import { analyzePage, type PageAnalysis } from "@/lib/analysis/analyze-page";
import { analyzeHttp } from "@/lib/analysis/http";
import { parsePage } from "@/lib/analysis/page";
import {
  checkAiBotAccess,
  checkLlmsTxt,
  checkRobotsTxt,
  checkSearchBotAccess,
  checkSitemap,
  type LlmsTxtFinding,
} from "@/lib/analysis/site-signals";
import type { Check, ParsedPage } from "@/lib/analysis/types";
import { requireOk, toToolError } from "@/lib/fetch/errors";
import type { GuardedFetch, GuardedResponse } from "@/lib/fetch/types";
import { parseLlmsTxt } from "@/lib/seo/llms-txt";
import { type BotAccess, checkBotAccess, fetchRobotsTxt, type RobotsFetchResult } from "@/lib/seo/robots";
import { findSitemaps, isUrlListed, type SitemapReport } from "@/lib/seo/sitemap";
import { type ToolContext, ToolError } from "../types";
import type { AuditResult } from "./audit-schema";
import { scoreAudit } from "./audit-scoring";
import { collectAiAccess } from "./collect-ai-access";
import { readTrackedVisits } from "./tracked-visits";

/** Everything an audit learnt, for tools that build on it (the combined SEO/AEO/GEO audit). */
export interface AuditRun {
  result: AuditResult;
  page: ParsedPage;
  analysis: PageAnalysis;
  bots: BotAccess[];
  /** ai-access.* checks, which the combined audit also counts towards AEO. */
  aiAccessChecks: Check[];
}

type AuditContext = Pick<ToolContext, "fetch" | "signal"> & Partial<Pick<ToolContext, "db" | "accountId">>;

const LLMS_TXT_MAX_BYTES = 1024 * 1024;

/** Fetches the page; a refused or failed fetch fails the job with the fetcher's code, a non-2xx with HTTP_ERROR. */
export async function fetchHtmlPage(url: string, ctx: AuditContext): Promise<GuardedResponse> {
  let res: GuardedResponse;
  try {
    res = await ctx.fetch(url, { signal: ctx.signal });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    throw toToolError(err);
  }
  requireOk(res);
  const type = res.headers["content-type"]?.[0]?.toLowerCase() ?? "";
  const looksHtml = type ? /html/.test(type) : /^\s*</.test(res.body.subarray(0, 512).toString("utf8"));
  if (!looksHtml) {
    throw new ToolError(
      "NOT_HTML",
      `${res.finalUrl} answered with ${type || "a non-HTML body"}, not an HTML page.`,
    );
  }
  return res;
}

async function readRobots(
  fetch: GuardedFetch,
  siteUrl: string,
  signal: AbortSignal,
): Promise<RobotsFetchResult> {
  try {
    return await fetchRobotsTxt(fetch, siteUrl, { signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw toToolError(err);
  }
}

async function readLlmsTxt(
  fetch: GuardedFetch,
  siteUrl: string,
  signal: AbortSignal,
): Promise<LlmsTxtFinding> {
  const url = new URL("/llms.txt", siteUrl).href;
  try {
    const res = await fetch(url, { signal, maxBytes: LLMS_TXT_MAX_BYTES, timeoutMs: 10_000 });
    if (res.status < 200 || res.status >= 300) return { url, status: res.status };
    // Sites that answer every path with their HTML 404 page have no llms.txt.
    if (/html/i.test(res.headers["content-type"]?.[0] ?? "")) {
      return { url, status: res.status, note: "answered with an HTML page, not a markdown file" };
    }
    return { url, status: res.status, parsed: parseLlmsTxt(res.text()) };
  } catch (err) {
    if (signal.aborted) throw err;
    return { url, status: null };
  }
}

async function readSiteSignals(ctx: AuditContext, siteUrl: string) {
  const [robots, llms] = await Promise.all([
    readRobots(ctx.fetch, siteUrl, ctx.signal),
    readLlmsTxt(ctx.fetch, siteUrl, ctx.signal),
  ]);
  const sitemaps: SitemapReport = await findSitemaps(ctx.fetch, siteUrl, {
    robots: robots.robots,
    signal: ctx.signal,
    maxSitemaps: 10,
  });
  return { robots, llms, sitemaps };
}

export async function runAudit(url: string, ctx: AuditContext): Promise<AuditRun> {
  const res = await fetchHtmlPage(url, ctx);
  const page = parsePage({ url: res.finalUrl, html: res.text(), headers: res.headers });
  const { robots, llms, sitemaps } = await readSiteSignals(ctx, res.finalUrl);
  const analysis = analyzePage(page, { requestedUrl: url, redirects: res.redirects, status: res.status });

  const bots = checkBotAccess(robots.robots, res.finalUrl);
  const canonical = analysis.meta.canonical;
  const pageListed =
    isUrlListed(sitemaps, res.finalUrl) || (canonical !== undefined && isUrlListed(sitemaps, canonical));
  const aiAccessChecks = [checkAiBotAccess(bots), checkLlmsTxt(llms)];
  // Tracked visits only where the database is at hand (a tool running in the server's process).
  const tracking =
    ctx.db && ctx.accountId
      ? await readTrackedVisits(ctx.db, ctx.accountId, new URL(res.finalUrl).hostname)
      : null;
  const aiAccess = await collectAiAccess(ctx, res.finalUrl, {
    robots,
    sitemapUrls: sitemaps.urls.map((u) => u.loc),
    extraUrls: [res.finalUrl],
    tracking,
  });
  const checks = [
    ...analyzeHttp(res),
    checkRobotsTxt(robots),
    checkSearchBotAccess(bots),
    checkSitemap(sitemaps, pageListed),
    ...aiAccessChecks,
    ...analysis.checks,
  ];
  const { meta, headings, structuredData, content, security } = analysis;
  const result: AuditResult = {
    input: { url },
    url,
    finalUrl: res.finalUrl,
    fetchedAt: new Date().toISOString(),
    ...scoreAudit(checks, security.score),
    http: {
      status: res.status,
      redirects: res.redirects,
      elapsedMs: Math.round(res.elapsedMs),
      contentType: res.headers["content-type"]?.[0] ?? null,
      bytes: res.body.length,
    },
    security,
    robots: {
      url: robots.url,
      status: robots.status,
      mode: robots.robots.mode,
      sitemaps: robots.robots.sitemaps,
      bots: bots.map((b) => ({
        token: b.token,
        operator: b.operator,
        kind: b.kind,
        purpose: b.purpose,
        allowed: b.allowed,
        rule: b.rule && { allow: b.rule.allow, pattern: b.rule.pattern, line: b.rule.line },
      })),
    },
    sitemaps: {
      sources: sitemaps.sources,
      urlCount: sitemaps.urls.length,
      pageListed,
      truncated: sitemaps.truncated,
      issues: sitemaps.issues.slice(0, 50),
    },
    llmsTxt: {
      url: llms.url,
      status: llms.status,
      found: llms.parsed !== undefined,
      valid: llms.parsed?.valid ?? false,
      title: llms.parsed?.model?.title ?? null,
      links: llms.parsed?.model?.sections.reduce((n, s) => n + s.links.length, 0) ?? 0,
      issues: (llms.parsed?.issues ?? [])
        .slice(0, 50)
        .map((i) => ({ line: i.line, severity: i.severity, message: i.message })),
    },
    meta: {
      title: meta.title ?? null,
      description: meta.description ?? null,
      canonical: meta.canonical ?? null,
      lang: meta.lang ?? null,
      hreflang: meta.hreflang,
      robots: meta.robots,
    },
    headings: { outline: headings.outline.slice(0, 200) },
    structuredData: {
      jsonLdBlocks: structuredData.jsonLdBlocks,
      types: structuredData.types,
      items: structuredData.items.slice(0, 200),
      malformed: structuredData.malformed,
    },
    content: {
      wordCount: content.wordCount,
      readability: content.readability,
      images: content.images,
      links: content.links,
    },
    checks,
    aiAccess,
  };
  return { result, page, analysis, bots, aiAccessChecks };
}
