// What an edge snippet (the Cloudflare Worker of the integration snippets) sends: a Worker sees every request of
// a site, and sending each would spend the key's rate limit on people's page views that count nowhere. It sends
// the requests the service can count, recognised by patterns built here from the catalogue and the classifier's
// own signals, so a snippet copied today knows today's agents and AI referrers; the service still classifies
// whatever it receives.

import crawlerUserAgents from "crawler-user-agents";
import { getPattern } from "isbot";
import { AI_REFERRER_HOSTS } from "./ai-referrers";
import { BOT_DEFINITIONS } from "./bots";
import { BROWSER_SHAPE, STRONG_BOT_SIGN } from "./classify";

/** Escaped for a regular expression literal (its slashes too), as the snippet's code holds the pattern. */
const escapeForLiteral = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** Words crawlers and fetchers put in their user agents; most bots carry one of them. */
const GENERIC = ["bot", "crawl", "spider", "slurp", "scrap", "fetch", "agent", "-user", "http", "@"];
/** Product tokens of agents that carry none of those words, besides the agents' own names. */
const KNOWN = ["gpt", "claude", "perplexity", "google-", "facebookexternal", "meta-external"];
/** Shorter names are common words of browsers' user agents ("Code", "Trae"): they count as a product token only. */
const MIN_NAME_LENGTH = 5;

/**
 * A case-insensitive pattern (the source of a regular expression literal) that a user agent of every AI agent
 * the classifier knows, and of most other bots, matches: the generic words, each agent's name and robots.txt
 * token of the catalogue (a short one as a product token, "Trae/1.2"), the AI crawlers of the public crawler list
 * the classifier also reads, and the signs by which the classifier takes any user agent for a program's (a tool's
 * name, contact details). Words that hold another word are left out (it matches them already).
 */
export function snippetUserAgentPattern(): string {
  userAgentPattern ??= buildUserAgentPattern();
  return userAgentPattern;
}
/** Built once: the catalogue does not change while the process runs, and the dashboard shows it on every render. */
let userAgentPattern: string | undefined;

function buildUserAgentPattern(): string {
  const words = new Set([...GENERIC, ...KNOWN]);
  const tokens = new Set<string>();
  for (const def of BOT_DEFINITIONS) {
    if (def.userAgent === null) continue;
    for (const name of [def.name, def.robotsToken]) {
      if (!name) continue;
      if (name.length >= MIN_NAME_LENGTH) words.add(name.toLowerCase());
      else if (/^[\w-]+$/.test(name))
        tokens.add(`(?:^|[\\s(;,])${escapeForLiteral(name.toLowerCase())}\\/\\d`);
    }
  }
  // The list's patterns are regular expressions; most are a plain name ("Spawning-AI", "newsai\/").
  const patterns = new Set<string>();
  for (const entry of crawlerUserAgents as readonly { pattern: string; tags?: string[] }[]) {
    if (!entry.tags?.includes("ai-crawler")) continue;
    const literal = entry.pattern.replace(/\\([./])/g, "$1");
    if (/^[\w ./-]+$/.test(literal)) words.add(literal.toLowerCase());
    else if (!GENERIC.some((w) => entry.pattern.toLowerCase().includes(w))) patterns.add(entry.pattern);
  }
  const kept = [...words].filter((w) => ![...words].some((other) => other !== w && w.includes(other)));
  return [
    ...kept.sort().map(escapeForLiteral),
    ...[...tokens].sort(),
    ...[...patterns].sort(),
    STRONG_BOT_SIGN.source,
  ].join("|");
}

/**
 * The two patterns by which the classifier takes an unnamed user agent for a program's (isbot's words of bots,
 * libraries and tools) unless it has a browser's shape: the snippet also sends a user agent that matches the first
 * and not the second, as the monitors, feed readers and scanners that name no bot word ("Uptime-Kuma/1.23").
 */
export function snippetProgramPatterns(): { program: string; browser: string } {
  // A RegExp's source escapes its slashes: it stands between the slashes of a literal as it is.
  return { program: getPattern().source, browser: BROWSER_SHAPE.source };
}

/**
 * Whether the Worker snippet sends a request with this user agent (and no signature or AI referrer): an empty one
 * (a script's), one the named pattern matches, or a program's that has no browser's shape. The snippet's code
 * holds the same test.
 */
export function snippetSendsUserAgent(userAgent: string): boolean {
  sendTests ??= {
    named: new RegExp(snippetUserAgentPattern(), "i"),
    program: new RegExp(snippetProgramPatterns().program, "i"),
    browser: new RegExp(snippetProgramPatterns().browser, "i"),
  };
  const { named, program, browser } = sendTests;
  return userAgent === "" || named.test(userAgent) || (program.test(userAgent) && !browser.test(userAgent));
}
let sendTests: { named: RegExp; program: RegExp; browser: RegExp } | undefined;

/**
 * A case-insensitive pattern for referrers from an AI answer: every AI referrer host of the catalogue and its
 * subdomains (with its path where only part of the host is an assistant, as bing.com/chat), and Android apps'
 * referrers (android-app://…), which the service reads by package.
 */
export function snippetReferrerPattern(): string {
  referrerPattern ??= buildReferrerPattern();
  return referrerPattern;
}
let referrerPattern: string | undefined;

function buildReferrerPattern(): string {
  const hosts = new Set<string>();
  for (const rule of AI_REFERRER_HOSTS) {
    hosts.add(
      rule.pathPrefix
        ? `${escapeForLiteral(rule.host)}(?::\\d+)?${escapeForLiteral(rule.pathPrefix)}`
        : `${escapeForLiteral(rule.host)}(?:[:/?#]|$)`,
    );
  }
  return `^(?:android-app:|https?:\\/\\/(?:[^/?#]*\\.)?(?:${[...hosts].sort().join("|")}))`;
}
