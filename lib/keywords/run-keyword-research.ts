import { getDomain } from "tldts";
import { CrawlBlockedError, crawlSite } from "@/lib/crawl/crawl-site";
import type { GuardedFetch, GuardedResponse } from "@/lib/fetch/types";
import {
  DataForSeoError,
  type Env,
  fetchKeywordIdeas,
  fetchKeywordOverview,
  readDataForSeoConfig,
} from "@/lib/providers/dataforseo";
import { BACKGROUND_SOURCE, loadBackground } from "./background/background";
import { extractKeyphrases } from "./extract-keyphrases";
import { collectQuestions, groupTopics } from "./group-topics";
import { type Availability, missingDataForSeoReason, runKeywordMetrics } from "./keyword-metrics";
import { extractZones, type PageZones } from "./page-zones";
import type { KeywordResearchInput, KeywordResearchResult } from "./schema";

/** The start page and up to 20 more pages of its site. */
const KEYWORD_CRAWL_PAGES = 21;
const CRAWL_TIME_LIMIT_MS = 60_000;
const KEYPHRASES = 50;
const METRICS_FOR_TOP = 20;
const IDEAS = 50;

export interface KeywordResearchContext {
  signal: AbortSignal;
  /** The guarded fetcher: customer URLs only go through it. */
  fetch: GuardedFetch;
  env?: Env;
  /** Outbound HTTP to the keyword data provider; default the global fetch. */
  providerFetch?: typeof fetch;
}

/** A failure to report on the job (the runner refunds it): code and message are shown to the customer. */
export class KeywordResearchError extends Error {
  constructor(
    readonly code: "ROBOTS_DISALLOWED" | "HTTP_ERROR" | "NOT_HTML" | "NO_TEXT",
    message: string,
  ) {
    super(message);
    this.name = "KeywordResearchError";
  }
}

/** Checked before any charge: seed keywords need the provider; a URL never does. */
export function keywordResearchAvailability(
  input: KeywordResearchInput,
  env: Env = process.env,
): Availability {
  if (input.keywords !== undefined && !readDataForSeoConfig(env)) {
    return { ok: false, reason: missingDataForSeoReason("Keyword research from seed keywords") };
  }
  return { ok: true };
}

/**
 * Keyword research. `{url}`: the site's own keyphrases, topics and questions from up to 21 crawled pages, plus
 * provider figures for the top phrases when a provider is configured. `{keywords}`: provider ideas and figures.
 * Fetch failures surface as the crawler's FetchError (the caller maps them to tool errors).
 */
export async function runKeywordResearch(
  input: KeywordResearchInput,
  ctx: KeywordResearchContext,
): Promise<KeywordResearchResult> {
  const env = ctx.env ?? process.env;
  if (input.keywords) return researchSeeds(input.keywords, ctx, env);
  if (!input.url) throw new Error("keyword research needs url or keywords");
  return researchSite(input.url, ctx, env);
}

async function researchSeeds(
  seeds: string[],
  ctx: KeywordResearchContext,
  env: Env,
): Promise<KeywordResearchResult> {
  const config = readDataForSeoConfig(env);
  if (!config) {
    throw new DataForSeoError(
      "DATAFORSEO_NOT_CONFIGURED",
      missingDataForSeoReason("Keyword research from seed keywords"),
    );
  }
  const market = { location: 2840, language: "en" };
  const [own, ideas] = await Promise.all([
    runKeywordMetrics(
      { keywords: seeds, ...market },
      { signal: ctx.signal, env, providerFetch: ctx.providerFetch },
    ),
    fetchKeywordIdeas(
      config,
      seeds.map((s) => s.toLowerCase()),
      { ...market, limit: IDEAS },
      { signal: ctx.signal, fetch: ctx.providerFetch },
    ),
  ]);
  const seedKeys = new Set(seeds.map((s) => s.toLowerCase()));
  return {
    mode: "keywords",
    seeds,
    metrics: own.keywords,
    ideas: ideas.ideas.filter((i) => !seedKeys.has(i.keyword.toLowerCase())),
    metricsSource: "dataforseo",
  };
}

async function researchSite(
  url: string,
  ctx: KeywordResearchContext,
  env: Env,
): Promise<KeywordResearchResult> {
  // The crawler keeps page facts, not bodies; the bodies it fetched are kept here, keyed by the URL that answered.
  const bodies = new Map<string, GuardedResponse>();
  const tapped: GuardedFetch = async (target, options) => {
    const res = await ctx.fetch(target, options);
    bodies.set(res.finalUrl, res);
    return res;
  };
  const crawl = await crawlSite(tapped, url, {
    signal: ctx.signal,
    maxPages: KEYWORD_CRAWL_PAGES,
    timeLimitMs: CRAWL_TIME_LIMIT_MS,
  }).catch((err: unknown) => {
    if (err instanceof CrawlBlockedError) throw new KeywordResearchError("ROBOTS_DISALLOWED", err.message);
    throw err;
  });
  const start = crawl.pages[0];
  if (!start || start.status < 200 || start.status >= 300) {
    const status = start?.status ?? crawl.skipped.find((s) => s.url === url)?.status ?? 0;
    if (!start && status >= 200 && status < 300) {
      throw new KeywordResearchError("NOT_HTML", `${crawl.siteUrl} did not answer with an HTML page.`);
    }
    throw new KeywordResearchError(
      "HTTP_ERROR",
      `${crawl.siteUrl} answered HTTP ${status}; the page must return a 2xx status.`,
    );
  }

  const pages: PageZones[] = [];
  for (const page of crawl.pages) {
    if (page.status < 200 || page.status >= 300 || page.noindex) continue;
    const res = bodies.get(page.finalUrl);
    if (res) pages.push(extractZones(res.text(), page.finalUrl));
  }
  bodies.clear();
  const background = loadBackground();
  const keyphrases = extractKeyphrases(pages, background, KEYPHRASES);
  if (keyphrases.length === 0) {
    throw new KeywordResearchError(
      "NO_TEXT",
      `${crawl.siteUrl} has too little text to find what it is about.`,
    );
  }
  const host = new URL(crawl.siteUrl).hostname;
  const siteNames = [start.siteName, getDomain(host)?.split(".")[0]]
    .filter((n): n is string => !!n)
    .map((n) => n.toLowerCase());
  const questions = collectQuestions(pages);
  const topics = groupTopics(keyphrases, pages, siteNames, questions);

  const config = readDataForSeoConfig(env);
  const metrics = config
    ? (
        await fetchKeywordOverview(
          config,
          keyphrases.slice(0, METRICS_FOR_TOP).map((k) => k.phrase),
          { location: 2840, language: "en" },
          { signal: ctx.signal, fetch: ctx.providerFetch },
        )
      ).metrics
    : null;

  return {
    mode: "url",
    url,
    siteUrl: crawl.siteUrl,
    pagesCrawled: crawl.pages.length,
    source: "extractive",
    background: BACKGROUND_SOURCE,
    keyphrases: keyphrases.map((k) => ({
      phrase: k.phrase,
      score: k.score,
      occurrences: k.occurrences,
      pages: k.pages.slice(0, 5),
      zones: k.zones,
    })),
    topics,
    questions: questions.slice(0, 30),
    metrics,
    metricsSource: metrics ? "dataforseo" : null,
  };
}
