// Fetches what the AI access matrix needs (robots.txt, the home page as a browser and as each AI crawler,
// llms.txt, key paths from the sitemap and the home page's links) within a bounded number of requests and
// time, and builds the matrix. The URL audit and the SEO/AEO/GEO audit pass what they already fetched.
import { AI_AGENTS, BROWSER_USER_AGENT } from "@/lib/analysis/ai-access/agents";
import { buildAiAccess, type ProbeAnswer, pathOf, type TrackedVisits } from "@/lib/analysis/ai-access/matrix";
import type { AiAccess, RobotsDirective, TdmRep, UsagePrefs } from "@/lib/analysis/ai-access/schema";
import {
  detectChallenge,
  isCrawlerMetaName,
  metaDirective,
  parseUsagePreference,
  parseXRobotsTag,
  readRobotsPreferences,
} from "@/lib/analysis/ai-access/signals";
import {
  parseTdmrepFile,
  readTdmHeaders,
  readTdmMeta,
  resolveTdm,
  type TdmDeclaration,
  tdmRuleFor,
} from "@/lib/analysis/ai-access/tdmrep";
import { parsePage } from "@/lib/analysis/page";
import { toToolError } from "@/lib/fetch/errors";
import type { GuardedResponse } from "@/lib/fetch/types";
import { parseLlmsTxt } from "@/lib/seo/llms-txt";
import { fetchRobotsTxt, type RobotsFetchResult } from "@/lib/seo/robots";
import { findSitemaps } from "@/lib/seo/sitemap";
import type { ToolContext } from "../types";

/** At most this many crawler user agents are tried, this many at once, each within PROBE_TIMEOUT_MS. */
const MAX_PROBES = 18;
const PROBE_CONCURRENCY = 4;
const PROBE_TIMEOUT_MS = 6_000;
/** All crawler probes together; those not answered by then are left out of the matrix, never read as refusals. */
const PROBE_BUDGET_MS = 20_000;
/** The home page and at most this many more paths are checked against robots.txt. */
const MAX_KEY_PATHS = 9;
const PAGE_MAX_BYTES = 2 * 1024 * 1024;
const LLMS_MAX_BYTES = 1024 * 1024;

type Ctx = Pick<ToolContext, "fetch" | "signal">;

export interface CollectOptions {
  /** robots.txt as the caller already fetched it. */
  robots?: RobotsFetchResult;
  /** Page URLs of the sitemaps, when the caller already read them. */
  sitemapUrls?: string[];
  /** Extra paths to check (the audited page). */
  extraUrls?: string[];
  /** Bot visits per catalogue name from tracking, for the contradictions; null when none are tracked. */
  tracking?: { days: number; byBot: Map<string, TrackedVisits> } | null;
}

function rethrowAbort(ctx: Ctx, err: unknown): never | undefined {
  if (ctx.signal.aborted) throw err;
  return undefined;
}

function bodyLooksHtml(res: GuardedResponse): boolean {
  const type = res.headers["content-type"]?.[0] ?? "";
  if (/html/i.test(type)) return true;
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(res.body.subarray(0, 512).toString("utf8"));
}

const TDMREP_MAX_BYTES = 256 * 1024;

/** /.well-known/tdmrep.json, read when it answers a JSON document (an HTML page there is a soft 404). */
async function readTdmrepFile(ctx: Ctx, home: string): Promise<TdmRep["file"]> {
  const url = new URL("/.well-known/tdmrep.json", home).href;
  try {
    const res = await ctx.fetch(url, { signal: ctx.signal, maxBytes: TDMREP_MAX_BYTES, timeoutMs: 10_000 });
    if (res.status < 200 || res.status > 299 || bodyLooksHtml(res)) {
      return { url, status: res.status, present: false, rules: [], issues: [] };
    }
    return { url, status: res.status, present: true, ...parseTdmrepFile(res.text()) };
  } catch (err) {
    rethrowAbort(ctx, err);
    const reason = err instanceof Error ? err.message : String(err);
    return { url, status: null, present: false, rules: [], issues: [`not fetched: ${reason}`] };
  }
}

async function readLlms(ctx: Ctx, home: string): Promise<AiAccess["llmsTxt"]> {
  const get = async (path: string) => {
    const url = new URL(path, home).href;
    try {
      const res = await ctx.fetch(url, { signal: ctx.signal, maxBytes: LLMS_MAX_BYTES, timeoutMs: 10_000 });
      const ok = res.status >= 200 && res.status < 300;
      const servedAs: "text" | "html" | "none" = !ok ? "none" : bodyLooksHtml(res) ? "html" : "text";
      return { url, status: res.status, servedAs, text: servedAs === "text" ? res.text() : "" };
    } catch (err) {
      rethrowAbort(ctx, err);
      return { url, status: null, servedAs: "none" as const, text: "" };
    }
  };
  const [main, full] = await Promise.all([get("/llms.txt"), get("/llms-full.txt")]);
  const parsed = main.servedAs === "text" ? parseLlmsTxt(main.text) : null;
  return {
    present: main.servedAs === "text",
    valid: parsed?.valid ?? false,
    servedAs: main.servedAs,
    url: main.url,
    status: main.status,
    issues: (parsed?.issues ?? []).slice(0, 20).map((i) => `line ${i.line} ${i.severity}: ${i.message}`),
    full: { present: full.servedAs === "text", servedAs: full.servedAs, url: full.url, status: full.status },
  };
}

/** Distinct sections of the site: one URL per first path segment, same origin, home excluded. */
function pickKeyUrls(home: string, candidates: readonly string[], max = MAX_KEY_PATHS): string[] {
  const origin = new URL(home).origin;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const candidate of candidates) {
    let url: URL;
    try {
      url = new URL(candidate, home);
    } catch {
      continue;
    }
    if (url.origin !== origin || url.pathname === "/" || !/^https?:$/.test(url.protocol)) continue;
    url.hash = "";
    const section = url.pathname.split("/")[1] ?? "";
    if (seen.has(section)) continue;
    seen.add(section);
    out.push(url.href);
    if (out.length >= max) break;
  }
  return out;
}

async function probe(ctx: Ctx, url: string, userAgent: string, signal: AbortSignal = ctx.signal) {
  try {
    const res = await ctx.fetch(url, {
      signal,
      headers: { "user-agent": userAgent },
      timeoutMs: PROBE_TIMEOUT_MS,
      maxBytes: PAGE_MAX_BYTES,
    });
    const body = res.body.subarray(0, 64 * 1024).toString("utf8");
    return {
      res,
      status: res.status,
      challenge: detectChallenge({ status: res.status, headers: res.headers, body }),
      error: null,
    };
  } catch (err) {
    rethrowAbort(ctx, err);
    return {
      res: null,
      status: null,
      challenge: null,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

/**
 * Content-Usage header values of the pages checked, each parsed on its own and combined as
 * draft-ietf-aipref-vocab §7.1 says: a category any value disallows is disallowed, else allowed if any allows.
 */
function combineUsage(values: readonly string[]): (UsagePrefs & { raw: string }) | null {
  if (values.length === 0) return null;
  const parsed = values.map(parseUsagePreference);
  const out: UsagePrefs & { raw: string } = {
    raw: values.join(" | "),
    unknown: [...new Set(parsed.flatMap((p) => p.unknown))],
  };
  for (const key of ["trainAi", "aiUse", "search"] as const) {
    const found = parsed.map((p) => p[key]).filter((v) => v !== undefined);
    if (found.includes("n")) out[key] = "n";
    else if (found.includes("y")) out[key] = "y";
  }
  return out;
}

async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

export async function collectAiAccess(
  ctx: Ctx,
  pageUrl: string,
  options: CollectOptions = {},
): Promise<AiAccess> {
  const home = new URL("/", pageUrl).href;
  let robots = options.robots;
  if (!robots) {
    try {
      robots = await fetchRobotsTxt(ctx.fetch, home, { signal: ctx.signal });
    } catch (err) {
      rethrowAbort(ctx, err);
      throw toToolError(err);
    }
  }
  const given = new URL(pageUrl);
  given.hash = "";
  const otherPage = given.href !== home ? given.href : null;
  const asBrowser = (url: string) =>
    probe(ctx, url, BROWSER_USER_AGENT).then(
      (answer) => answer ?? { res: null, status: null, challenge: null, error: "no answer" },
    );
  const [browser, page, llmsTxt, tdmFile, sitemapUrls] = await Promise.all([
    asBrowser(home),
    // The page asked about, when it is not the home page: its own directives and preferences count too.
    otherPage ? asBrowser(otherPage) : Promise.resolve(null),
    readLlms(ctx, home),
    readTdmrepFile(ctx, home),
    options.sitemapUrls
      ? Promise.resolve(options.sitemapUrls)
      : findSitemaps(ctx.fetch, home, {
          robots: robots.robots,
          signal: ctx.signal,
          maxSitemaps: 3,
          maxUrls: 500,
        })
          .then((r) => r.urls.map((u) => u.loc))
          .catch((err) => rethrowAbort(ctx, err) ?? []),
  ]);

  const directives: RobotsDirective[] = [];
  const usageRaw: string[] = [];
  let links: string[] = [];
  // The TDM declarations of the page asked about (the home page when that is the one).
  const target = page ?? browser;
  let tdmHeader: TdmDeclaration | null = null;
  let tdmMeta: TdmDeclaration | null = null;
  for (const answer of [browser, page]) {
    if (!answer?.res) continue;
    const res = answer.res;
    directives.push(...parseXRobotsTag(res.headers["x-robots-tag"] ?? []));
    usageRaw.push(...(res.headers["content-usage"] ?? []));
    if (answer === target) tdmHeader = readTdmHeaders(res.headers);
    if (bodyLooksHtml(res) && answer.status !== null && answer.status < 400) {
      const parsed = parsePage({ url: res.finalUrl, html: res.text() });
      const metas: { name: string; content: string }[] = [];
      parsed.$("meta[name][content]").each((_, el) => {
        const name = parsed.$(el).attr("name") ?? "";
        const content = parsed.$(el).attr("content") ?? "";
        metas.push({ name, content });
        if (isCrawlerMetaName(name)) directives.push(metaDirective(name, content));
      });
      if (answer === target) tdmMeta = readTdmMeta(metas);
      if (answer === browser) {
        links = parsed
          .$("a[href]")
          .toArray()
          .map((el) => parsed.$(el).attr("href") ?? "");
      }
    }
  }
  // The same directive sent by both pages counts once.
  const seenDirectives = new Set<string>();
  const uniqueDirectives = directives.filter((d) => {
    const key = JSON.stringify(d);
    if (seenDirectives.has(key)) return false;
    seenDirectives.add(key);
    return true;
  });
  const usageHeader = combineUsage([...new Set(usageRaw)]);

  const site = browser.res?.finalUrl ?? home;
  const urls = [
    site,
    ...pickKeyUrls(
      site,
      [
        ...(otherPage ? [page?.res?.finalUrl ?? otherPage] : []),
        ...(options.extraUrls ?? []),
        ...sitemapUrls,
        ...links,
      ],
      MAX_KEY_PATHS,
    ),
  ];
  const agents = AI_AGENTS.filter((a) => a.userAgent !== null).slice(0, MAX_PROBES);
  const budget = AbortSignal.any([ctx.signal, AbortSignal.timeout(PROBE_BUDGET_MS)]);
  const answers = await inBatches(agents, PROBE_CONCURRENCY, async (agent) => {
    if (budget.aborted) return null;
    const answer = await probe(ctx, home, agent.userAgent!, budget);
    if (!answer) return null;
    return {
      token: agent.token,
      userAgent: agent.userAgent!,
      status: answer.status,
      challenge: answer.challenge,
      error: answer.error,
    };
  });
  const probes: ProbeAnswer[] = answers.filter((a): a is ProbeAnswer => a !== null);
  const prefs = readRobotsPreferences(robots.robots);
  const tdmPath = pathOf(target.res?.finalUrl ?? otherPage ?? site);
  const tdm = resolveTdm(tdmRuleFor(tdmFile.rules, tdmPath), tdmHeader, tdmMeta);
  const tdmrep: TdmRep | null =
    tdmFile.present || tdmHeader || tdmMeta
      ? { file: tdmFile, header: tdmHeader, meta: tdmMeta, path: tdmPath, ...tdm }
      : null;
  return buildAiAccess({
    site,
    urls,
    robots: robots.robots,
    robotsUrl: robots.url,
    robotsStatus: robots.status,
    signals: prefs.signals,
    usageRules: prefs.usage,
    usageHeader,
    directives: uniqueDirectives,
    browser: { status: browser.status, challenge: browser.challenge },
    probes,
    llmsTxt,
    tdmrep,
    tracking: options.tracking ?? null,
  });
}
