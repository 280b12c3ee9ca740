/**
 * Checks over what the site publishes next to the page: robots.txt, sitemaps and llms.txt. The fetching and
 * parsing live in lib/seo; these functions only judge the parsed results, so they stay pure and testable.
 */
import type { LlmsTxtParseResult } from "@/lib/seo/llms-txt";
import type { BotAccess, RobotsFetchResult } from "@/lib/seo/robots";
import type { SitemapReport } from "@/lib/seo/sitemap";
import { clip, createCheck, plural } from "./check";
import type { Check } from "./types";

export function checkRobotsTxt(result: RobotsFetchResult): Check {
  const evidence = [
    `${result.url} → ${result.status === null ? (result.error?.code ?? "unreachable") : `HTTP ${result.status}`}`,
  ];
  const { robots } = result;
  if (robots.mode === "disallow-all") {
    return createCheck(
      "crawl.robots-txt",
      "crawl",
      "fail",
      "robots.txt could not be read (server error or network failure), so well-behaved crawlers treat the whole site as disallowed. Make /robots.txt answer 200 (or 404).",
      evidence,
    );
  }
  if (robots.mode === "allow-all") {
    return createCheck(
      "crawl.robots-txt",
      "crawl",
      "warn",
      "There is no robots.txt, so crawlers may fetch everything. Add one to state your crawl policy and list your sitemap.",
      evidence,
    );
  }
  // AI usage preferences and other crawler-specific records: shown, not counted as problems.
  evidence.push(
    ...robots.otherRecords.map((r) => `line ${r.line}: ${r.key}: ${clip(r.value, 200)} (not a crawl rule)`),
  );
  const issues = robots.issues.map((i) => `line ${i.line}: ${i.message}`);
  if (issues.length) {
    return createCheck(
      "crawl.robots-txt",
      "crawl",
      "warn",
      `robots.txt parses with ${plural(issues.length, "problem")}; crawlers skip lines they cannot read. Fix them.`,
      [...evidence, ...issues],
    );
  }
  return createCheck(
    "crawl.robots-txt",
    "crawl",
    "pass",
    `robots.txt is present with ${plural(robots.groups.length, "group")}${robots.sitemaps.length ? ` and ${plural(robots.sitemaps.length, "Sitemap line")}` : ""}.`,
    evidence,
  );
}

const describeBot = (b: BotAccess) =>
  `${b.token} (${b.operator}, ${b.purpose}): ${b.allowed ? "allowed" : "blocked"}${b.rule ? ` by line ${b.rule.line} "${b.rule.allow ? "Allow" : "Disallow"}: ${b.rule.pattern}"` : ""}`;

/** Search crawlers: a page they may not fetch cannot rank. */
export function checkSearchBotAccess(bots: BotAccess[]): Check {
  const search = bots.filter((b) => b.kind === "search");
  const blocked = search.filter((b) => !b.allowed);
  const major = blocked.filter((b) => b.token === "Googlebot" || b.token === "Bingbot");
  if (major.length) {
    return createCheck(
      "crawl.search-bots",
      "crawl",
      "fail",
      `robots.txt blocks ${major.map((b) => b.token).join(" and ")} from this page, so it cannot be crawled for search (or for answers built on those indexes). Allow it unless that is intended.`,
      blocked.map(describeBot),
    );
  }
  if (blocked.length) {
    return createCheck(
      "crawl.search-bots",
      "crawl",
      "warn",
      `robots.txt blocks ${blocked.map((b) => b.token).join(", ")} from this page.`,
      blocked.map(describeBot),
    );
  }
  return createCheck(
    "crawl.search-bots",
    "crawl",
    "pass",
    `All ${search.length} search crawlers checked may fetch this page.`,
    [],
  );
}

/**
 * AI crawlers. Blocking answer/search bots (OAI-SearchBot, PerplexityBot, ChatGPT-User…) keeps the page out of
 * AI answers, which defeats AEO; blocking training-only bots (GPTBot, CCBot…) is a legitimate policy choice.
 */
export function checkAiBotAccess(bots: BotAccess[]): Check {
  const ai = bots.filter((b) => b.kind === "ai");
  const blocked = ai.filter((b) => !b.allowed);
  const answering = blocked.filter((b) => b.purpose !== "training");
  if (answering.length) {
    return createCheck(
      "ai-access.bots",
      "ai-access",
      "fail",
      `robots.txt blocks AI answer engines from this page: ${answering.map((b) => b.token).join(", ")}. They cannot fetch or cite it; allow them if you want to appear in AI answers.`,
      blocked.map(describeBot),
    );
  }
  if (blocked.length) {
    return createCheck(
      "ai-access.bots",
      "ai-access",
      "warn",
      `AI answer engines may fetch this page, but training crawlers are blocked: ${blocked.map((b) => b.token).join(", ")}. That is a policy choice; it can reduce how well models know your brand.`,
      blocked.map(describeBot),
    );
  }
  return createCheck(
    "ai-access.bots",
    "ai-access",
    "pass",
    `All ${ai.length} AI crawlers checked may fetch this page.`,
    [],
  );
}

export function checkSitemap(report: SitemapReport, listed: boolean): Check {
  const readable = report.sources.filter((s) => s.kind !== "invalid" && s.kind !== "unreachable");
  const evidence = [
    ...report.sources.map(
      (s) =>
        `${s.url} (${s.from}): ${s.kind}${s.kind !== "sitemapindex" && s.kind !== "invalid" && s.kind !== "unreachable" ? `, ${plural(s.urlCount, "URL")}` : ""}${s.status !== null ? `, HTTP ${s.status}` : ""}`,
    ),
    ...report.issues
      .filter((i) => i.severity === "error")
      .map((i) => `${i.sitemap}: ${clip(i.message, 120)}`),
  ];
  if (readable.length === 0) {
    return createCheck(
      "crawl.sitemap",
      "crawl",
      "warn",
      "No readable XML sitemap was found (robots.txt Sitemap lines or /sitemap.xml). Publish one and reference it from robots.txt.",
      evidence,
    );
  }
  if (!listed) {
    return createCheck(
      "crawl.sitemap",
      "crawl",
      "warn",
      `The site has a sitemap (${plural(report.urls.length, "URL")}), but this page is not listed${report.truncated ? " in the part read" : ""}. Add its canonical URL.`,
      evidence,
    );
  }
  return createCheck(
    "crawl.sitemap",
    "crawl",
    "pass",
    "The page is listed in the site's XML sitemap.",
    evidence,
  );
}

export interface LlmsTxtFinding {
  url: string;
  /** HTTP status; null when the fetch failed. */
  status: number | null;
  parsed?: LlmsTxtParseResult;
  /** Why an answer was not taken as an llms.txt (e.g. an HTML soft-404 page). */
  note?: string;
}

export function checkLlmsTxt(finding: LlmsTxtFinding): Check {
  const evidence = [
    `${finding.url} → ${finding.status === null ? "unreachable" : `HTTP ${finding.status}`}${finding.note ? ` (${finding.note})` : ""}`,
  ];
  const { parsed } = finding;
  if (!parsed) {
    return createCheck(
      "ai-access.llms-txt",
      "ai-access",
      "warn",
      "No /llms.txt. It is an emerging convention (llmstxt.org) giving language models a curated map of the site; consider publishing one.",
      evidence,
    );
  }
  const issues = parsed.issues.map((i) => `line ${i.line} ${i.severity}: ${i.message}`);
  if (!parsed.valid) {
    return createCheck(
      "ai-access.llms-txt",
      "ai-access",
      "fail",
      "/llms.txt exists but does not follow the llmstxt.org format; fix the errors listed.",
      [...evidence, ...issues],
    );
  }
  const links = parsed.model?.sections.reduce((n, s) => n + s.links.length, 0) ?? 0;
  if (issues.length) {
    return createCheck(
      "ai-access.llms-txt",
      "ai-access",
      "warn",
      `/llms.txt is valid with ${plural(links, "link")} but has ${plural(issues.length, "warning")}.`,
      [...evidence, ...issues],
    );
  }
  return createCheck(
    "ai-access.llms-txt",
    "ai-access",
    "pass",
    `/llms.txt is valid: "${clip(parsed.model?.title ?? "", 60)}" with ${plural(links, "link")}.`,
    evidence,
  );
}
