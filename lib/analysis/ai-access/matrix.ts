// Builds the AI access matrix from what was fetched: one row per operator and purpose, what decides it, and
// the contradictions between the mechanisms (and with the visits tracking recorded), in words.
import { matchRobots, type Robots, selectGroups } from "@/lib/seo/robots";
import { AI_AGENTS, type AiAgent } from "./agents";
import type { AiAccess, AiAccessRow, RobotsDirective, TdmRep, UsagePrefs } from "./schema";
import { type ContentSignal, directivesFor, type RobotsUsageRule } from "./signals";
import { tdmRuleFor } from "./tdmrep";

export interface ProbeAnswer {
  token: string;
  userAgent: string;
  status: number | null;
  challenge: string | null;
  error: string | null;
}

/** Bot visits tracking recorded for one crawler over the last `days` days. */
export interface TrackedVisits {
  visits: number;
  verified: number;
  spoofed: number;
}

export interface MatrixInput {
  site: string;
  /** Absolute URLs: the home page first, then the key paths. */
  urls: string[];
  robots: Robots;
  robotsUrl: string;
  robotsStatus: number | null;
  signals: ContentSignal[];
  usageRules: RobotsUsageRule[];
  usageHeader: (UsagePrefs & { raw: string }) | null;
  directives: RobotsDirective[];
  browser: { status: number | null; challenge: string | null };
  probes: ProbeAnswer[];
  llmsTxt: AiAccess["llmsTxt"];
  /** The TDM Reservation Protocol's declarations for the page checked; null when the site declares nothing. */
  tdmrep: TdmRep | null;
  /** Visits per catalogue bot name; null when the account tracks no visits for this domain. */
  tracking: { days: number; byBot: Map<string, TrackedVisits> } | null;
}

const REFUSAL_STATUSES = new Set([401, 403, 406, 429, 451, 503]);

function isRefusal(a: { status: number | null; challenge: string | null }): boolean {
  return a.challenge !== null || a.status === null || REFUSAL_STATUSES.has(a.status);
}

function describeAnswer(a: {
  status: number | null;
  challenge: string | null;
  error?: string | null;
}): string {
  if (a.challenge) return `a ${a.challenge} page (HTTP ${a.status})`;
  if (a.status === null) return `no answer (${a.error ?? "the request failed"})`;
  return `HTTP ${a.status}`;
}

/** A URL's path and query, as robots.txt and TDMRep rules match them. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

const fmt = (n: number) => n.toLocaleString("en-US");

/** The Content-Signal key, Content-Usage label and directive that speak for a purpose. */
const SIGNAL_FOR = { training: "aiTrain", "search-index": "search", "user-fetch": "aiInput" } as const;
const SIGNAL_NAME = { aiTrain: "ai-train", search: "search", aiInput: "ai-input" } as const;
const USAGE_FOR = { training: "trainAi", "search-index": "search", "user-fetch": "aiUse" } as const;
const USAGE_NAME = { trainAi: "train-ai", search: "search", aiUse: "ai-use" } as const;

interface Evaluated {
  row: AiAccessRow;
  agent: AiAgent;
  /** robots.txt lets the token fetch the home page. */
  robotsAllowsHome: boolean;
  robotsBlockedAll: boolean;
  serverRefused: ProbeAnswer | null;
  preferenceNo: string[];
}

function groupsOf(input: MatrixInput, token: string): Set<number> {
  return new Set(input.robots.mode === "rules" ? selectGroups(input.robots, token).indexes : []);
}

/** The Content-Signal lines of the groups that apply to the token. */
function signalsFor(input: MatrixInput, token: string): ContentSignal[] {
  const groups = groupsOf(input, token);
  // A line before any user-agent line belongs to no group: read it as meant for every crawler.
  return input.signals.filter((s) => s.group === undefined || groups.has(s.group));
}

/** The Content-Usage rules that decide `path` for the token: the longest matching path (attach §3.1). */
function usageRulesFor(input: MatrixInput, token: string, path: string): RobotsUsageRule[] {
  const groups = groupsOf(input, token);
  const matching = input.usageRules.filter(
    (r) => (r.group === undefined || groups.has(r.group)) && path.startsWith(r.path),
  );
  const longest = Math.max(-1, ...matching.map((r) => r.path.length));
  return matching.filter((r) => r.path.length === longest);
}

function evaluate(input: MatrixInput, agent: AiAgent): Evaluated {
  const by: string[] = [];
  const { token, purpose } = agent;
  const robots = input.robots;
  let blocked = false;
  let partly = false;
  let robotsAllowsHome = true;
  let robotsBlockedAll = false;

  if (robots.mode === "allow-all") {
    by.push(
      `robots.txt: none at ${input.robotsUrl} (HTTP ${input.robotsStatus}), so every crawler may fetch every path`,
    );
  } else if (robots.mode === "disallow-all") {
    blocked = true;
    robotsAllowsHome = false;
    robotsBlockedAll = true;
    by.push(
      `robots.txt: ${input.robotsUrl} could not be read (${input.robotsStatus === null ? "no answer" : `HTTP ${input.robotsStatus}`}), so crawlers treat the whole site as disallowed`,
    );
  } else {
    const matches = input.urls.map((url) => ({ url, ...matchRobots(robots, token, url) }));
    const denied = matches.filter((m) => !m.allowed);
    robotsAllowsHome = matches[0]?.allowed ?? true;
    const groupWords =
      matches[0]?.group === "specific"
        ? `the group naming ${token}`
        : matches[0]?.group === "wildcard"
          ? "the * group"
          : "no group (none names it, and there is no * group)";
    const rule = (m: (typeof matches)[number]) =>
      m.rule ? `${m.rule.allow ? "Allow" : "Disallow"}: ${m.rule.pattern} (line ${m.rule.line})` : "no rule";
    if (denied.length === 0) {
      by.push(`robots.txt: ${groupWords} allows ${token} on all ${matches.length} paths checked`);
    } else if (denied.length === matches.length) {
      blocked = true;
      robotsBlockedAll = true;
      by.push(`robots.txt: ${groupWords} blocks ${token} on every path checked (${rule(denied[0]!)})`);
    } else {
      partly = true;
      const examples = denied.slice(0, 3).map((m) => `${pathOf(m.url)} by ${rule(m)}`);
      by.push(
        `robots.txt: ${groupWords} blocks ${token} on ${denied.length} of ${matches.length} paths checked (${examples.join("; ")})`,
      );
    }
  }

  const probe = input.probes.find((p) => p.token === token) ?? null;
  let serverRefused: ProbeAnswer | null = null;
  if (probe) {
    if (isRefusal(probe) && !isRefusal(input.browser)) {
      serverRefused = probe;
      blocked = true;
      by.push(
        `server: answers ${token}'s user agent with ${describeAnswer(probe)} while a browser gets ${describeAnswer(input.browser)}`,
      );
    } else if (isRefusal(probe)) {
      by.push(
        `server: answers ${token} with ${describeAnswer(probe)}, and a browser too, so it is not particular to AI crawlers`,
      );
    } else {
      by.push(`server: answers ${token}'s user agent with ${describeAnswer(probe)}`);
    }
  }

  for (const d of directivesFor(input.directives, token)) {
    const where =
      d.source === "meta"
        ? `<meta name="${d.agent}">`
        : `X-Robots-Tag${d.agent === "robots" ? "" : ` (${d.agent})`}`;
    const has = (name: string) => d.directives.some((x) => x === name || x.startsWith(`${name}:`));
    if (purpose === "training" && has("noai")) {
      blocked = true;
      by.push(`${where}: noai asks that the page not be used for AI training`);
    }
    if (purpose === "training" && has("noimageai")) {
      partly = true;
      by.push(`${where}: noimageai asks that the page's images not be used for AI training`);
    }
    if (purpose === "search-index" && (has("noindex") || has("none"))) {
      blocked = true;
      by.push(`${where}: ${has("none") ? "none" : "noindex"} keeps the home page out of the index`);
    }
    if (purpose !== "training" && (has("nosnippet") || d.directives.includes("max-snippet:0"))) {
      partly = true;
      by.push(
        `${where}: ${has("nosnippet") ? "nosnippet" : "max-snippet:0"} forbids quoting the page in results and AI answers`,
      );
    } else if (purpose !== "training" && has("max-snippet")) {
      by.push(
        `${where}: ${d.directives.find((x) => x.startsWith("max-snippet"))} limits how much may be quoted`,
      );
    }
  }

  const preferenceNo: string[] = [];
  const signalKey = SIGNAL_FOR[purpose];
  for (const s of signalsFor(input, token)) {
    const value = s[signalKey];
    if (!value) continue;
    const text = `${SIGNAL_NAME[signalKey]}=${value}`;
    if (value === "no") {
      blocked = true;
      preferenceNo.push(text);
    }
    const group = s.userAgents.length
      ? `group ${s.userAgents.join(", ")}`
      : "before any group, read as for every crawler";
    by.push(`Content-Signal: ${text} (robots.txt line ${s.line}, ${group})`);
  }
  const usageKey = USAGE_FOR[purpose];
  const usage = [
    ...usageRulesFor(input, token, pathOf(input.urls[0] ?? input.site)).map((r) => ({
      prefs: r as UsagePrefs,
      where: `robots.txt line ${r.line}, path ${r.path}`,
    })),
    ...(input.usageHeader
      ? [{ prefs: input.usageHeader as UsagePrefs, where: "HTTP header of the page checked" }]
      : []),
  ];
  for (const u of usage) {
    const value = u.prefs[usageKey];
    if (!value) continue;
    const text = `${USAGE_NAME[usageKey]}=${value}`;
    if (value === "n") {
      blocked = true;
      preferenceNo.push(text);
    }
    by.push(`Content-Usage: ${text} (${u.where})`);
  }

  const tdm = input.tdmrep;
  if (purpose === "training" && tdm && tdm.reservation !== null) {
    const where = `${TDM_SOURCE_WORDS[tdm.source ?? "tdmrep.json"]}, for ${tdm.path}`;
    if (tdm.reservation === 1) {
      blocked = true;
      preferenceNo.push("tdm-reservation: 1");
      by.push(
        `TDMRep: tdm-reservation: 1 (${where}) reserves text and data mining rights, AI training included${tdm.policy ? `; a licence may be asked for at ${tdm.policy}` : ""}`,
      );
    } else {
      by.push(`TDMRep: tdm-reservation: 0 (${where}): text and data mining rights are not reserved`);
    }
  }

  const status: AiAccessRow["status"] = blocked ? "blocked" : partly ? "partly" : "allowed";
  return {
    row: { operator: agent.operator, token, purpose, status, by },
    agent,
    robotsAllowsHome,
    robotsBlockedAll,
    serverRefused,
    preferenceNo,
  };
}

const TDM_SOURCE_WORDS = {
  "tdmrep.json": "/.well-known/tdmrep.json",
  header: "the page's tdm-reservation header",
  meta: "the page's tdm-reservation meta tag",
} as const;

/** A page whose header or meta tag overrides what tdmrep.json says for it (the later technique wins). */
function tdmConflict(tdm: TdmRep | null): string | null {
  if (!tdm?.file.present || tdm.source === null || tdm.source === "tdmrep.json") return null;
  const rule = tdmRuleFor(tdm.file.rules, tdm.path);
  if (!rule || rule.reservation === null || rule.reservation === tdm.reservation) return null;
  return `/.well-known/tdmrep.json says tdm-reservation: ${rule.reservation} for ${tdm.path} (location ${rule.location}), but ${TDM_SOURCE_WORDS[tdm.source]} says ${tdm.reservation}, which supersedes it`;
}

const PURPOSE_WORDS = {
  training: "training",
  "search-index": "search indexing",
  "user-fetch": "fetching pages for users",
};

function contradictionsOf(input: MatrixInput, rows: Evaluated[]): AiAccess["contradictions"] {
  const out: AiAccess["contradictions"] = [];
  for (const e of rows) {
    const { token, operator, product, purpose } = e.agent;
    if (e.serverRefused && e.robotsAllowsHome) {
      out.push({
        operator,
        token,
        message: `robots.txt allows ${token} but the server answers it ${describeAnswer(e.serverRefused)} (a browser gets ${describeAnswer(input.browser)}): a firewall or CDN rule blocks it`,
      });
    }
    if (e.robotsAllowsHome && !e.serverRefused) {
      for (const p of e.preferenceNo) {
        out.push({
          operator,
          token,
          message: `${p} but ${token} is allowed by robots.txt: it may still crawl, and only ${operator}'s respect for the preference keeps the content from ${PURPOSE_WORDS[purpose]}`,
        });
      }
    }
    if (purpose === "user-fetch" && (e.robotsBlockedAll || e.serverRefused)) {
      out.push({
        operator,
        token,
        message: `${token} is blocked, so ${product} cannot read pages a user asks about`,
      });
    }
    if (purpose === "search-index" && e.robotsBlockedAll) {
      const yes = signalsFor(input, token).find((s) => s.search === "yes");
      if (yes) {
        out.push({
          operator,
          token,
          message: `Content-Signal search=yes (line ${yes.line}) but robots.txt blocks ${token}, so ${product} cannot index the site`,
        });
      }
    }
    if (input.tracking && e.agent.userAgent) {
      const seen = input.tracking.byBot.get(e.agent.name);
      const days = input.tracking.days;
      if (!e.robotsBlockedAll && !e.serverRefused && (!seen || seen.visits === 0)) {
        out.push({ operator, token, message: `allowed, but ${token} has not visited in ${days} days` });
      } else if ((e.robotsBlockedAll || e.serverRefused) && seen && seen.visits > 0) {
        const unverified = seen.visits - seen.verified - seen.spoofed;
        const parts = [
          seen.verified ? `${fmt(seen.verified)} verified` : "",
          seen.spoofed ? `${fmt(seen.spoofed)} from addresses outside ${operator}'s published ranges` : "",
          unverified ? `${fmt(unverified)} unverified` : "",
        ].filter(Boolean);
        const detail =
          seen.verified === 0 && seen.spoofed === 0
            ? "all unverified"
            : seen.verified === seen.visits
              ? "all verified"
              : parts.join(", ");
        out.push({
          operator,
          token,
          message: `blocked, yet ${fmt(seen.visits)} ${seen.visits === 1 ? "visit" : "visits"} claiming ${token} came in ${days} days (${detail})`,
        });
      }
    }
  }
  const conflict = tdmConflict(input.tdmrep);
  if (conflict) out.push({ message: conflict });
  const llms = input.llmsTxt;
  if (llms.servedAs === "html" && llms.status !== null && llms.status >= 200 && llms.status < 300) {
    out.push({
      message: `${llms.url} answers HTTP ${llms.status} with an HTML page, not a text file: AI tools reading it get the page's markup instead of an llms.txt`,
    });
  }
  const aiReaders = rows.filter(
    (e) => e.agent.purpose !== "training" && !["Googlebot", "bingbot", "Applebot"].includes(e.agent.token),
  );
  if (llms.present && aiReaders.length > 0 && aiReaders.every((e) => e.robotsBlockedAll || e.serverRefused)) {
    out.push({
      message:
        "llms.txt offers the site to language models, yet every AI search crawler and user fetcher is blocked",
    });
  }
  return out;
}

export function buildAiAccess(input: MatrixInput): AiAccess {
  const evaluated = AI_AGENTS.map((agent) => evaluate(input, agent));
  const headerPrefs = input.usageHeader;
  return {
    site: input.site,
    paths: input.urls.map(pathOf),
    rows: evaluated.map((e) => e.row),
    signals: {
      ...(input.signals.length > 0 ? { contentSignal: input.signals.map(({ group: _, ...s }) => s) } : {}),
      ...(input.usageRules.length > 0 || headerPrefs
        ? { contentUsage: { header: headerPrefs, robots: input.usageRules.map(({ group: _, ...r }) => r) } }
        : {}),
      robotsMeta: input.directives,
      ...(input.tdmrep ? { tdmrep: input.tdmrep } : {}),
    },
    llmsTxt: input.llmsTxt,
    serverAnswers: {
      browser: input.browser,
      bots: input.probes.map((p) => ({
        ...p,
        refused: isRefusal(p) && !isRefusal(input.browser),
      })),
    },
    contradictions: contradictionsOf(input, evaluated),
    tracking: { used: input.tracking !== null, days: input.tracking?.days ?? 30 },
  };
}
