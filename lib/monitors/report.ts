import { and, eq, gte, lt } from "drizzle-orm";
import { findRegistrableDomain } from "@/lib/ai-visibility/domains";
import { isCalendarDay } from "@/lib/calendar";
import type { DbOrTx } from "@/lib/db/client";
import { type MonitorAnswer, monitorAnswers } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { EngineName } from "@/lib/providers/engine-types";
import { CHANGE_METHOD, INTERVAL_METHOD } from "@/lib/stats/proportions";
import { classifyDomain } from "./domain-classes";
import { type AnswerFacts, countAnswers, rateSet } from "./rates";
import type { MonitorReport, RateSet, ReportQuery } from "./schemas";
import { requireMonitor } from "./service";

const DAY = 86_400_000;
const DEFAULT_DAYS = 30;
/** The longest period one report covers (answers are kept 13 months). */
const MAX_DAYS = 400;

function parseBound(text: string, field: string, endOfDay: boolean): Date {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const d = new Date(bare ? `${text}T00:00:00Z` : text);
  if (
    !isCalendarDay(text) ||
    Number.isNaN(d.getTime()) ||
    d.getUTCFullYear() < 2000 ||
    d.getUTCFullYear() > 9999
  ) {
    throw new AppError("VALIDATION_ERROR", `${field} is not a valid date.`, {
      field,
      issues: [{ field, message: "Not a valid date." }],
    });
  }
  return bare && endOfDay ? new Date(d.getTime() + DAY) : d;
}

export function resolvePeriod(query: Pick<ReportQuery, "from" | "to">, now = new Date()) {
  const to = query.to ? parseBound(query.to, "to", true) : now;
  const from = query.from
    ? parseBound(query.from, "from", false)
    : new Date(to.getTime() - DEFAULT_DAYS * DAY);
  if (from >= to) {
    throw new AppError("VALIDATION_ERROR", "from must be before to.", {
      field: "from",
      issues: [{ field: "from", message: "Must be before to." }],
    });
  }
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY) {
    throw new AppError("VALIDATION_ERROR", `A report covers at most ${MAX_DAYS} days.`, {
      field: "from",
      issues: [{ field: "from", message: `At most ${MAX_DAYS} days before to.` }],
    });
  }
  return { from, to };
}

async function answersIn(db: DbOrTx, monitorId: string, from: Date, to: Date): Promise<MonitorAnswer[]> {
  return db
    .select()
    .from(monitorAnswers)
    .where(
      and(
        eq(monitorAnswers.monitorId, monitorId),
        gte(monitorAnswers.createdAt, from),
        lt(monitorAnswers.createdAt, to),
      ),
    );
}

const facts = (a: MonitorAnswer): AnswerFacts => ({
  mentioned: a.mentioned ?? false,
  position: a.position,
  ownCited: a.ownCited ?? false,
  sentiment: a.sentiment,
  competitors: a.competitors ?? [],
});

function group<K>(answers: MonitorAnswer[], key: (a: MonitorAnswer) => K): Map<K, MonitorAnswer[]> {
  const out = new Map<K, MonitorAnswer[]>();
  for (const a of answers) {
    const k = key(a);
    out.set(k, [...(out.get(k) ?? []), a]);
  }
  return out;
}

/**
 * A monitor's report for a period: rates in total, per engine, per prompt × engine and per competitor, each with
 * n and its 95% interval; with `compare=previous`, the same-length period just before and each rate's change
 * (significant or not, by a two-proportion z-test); the cited domains ranked and classified; the grounding diff
 * of the domain's pages. Only answers that succeeded count; failed ones are counted apart.
 */
export async function monitorReport(
  db: DbOrTx,
  accountId: string,
  monitorId: string,
  query: ReportQuery,
  now = new Date(),
): Promise<MonitorReport> {
  const monitor = await requireMonitor(db, accountId, monitorId);
  const { from, to } = resolvePeriod(query, now);
  const all = await answersIn(db, monitorId, from, to);
  const ok = all.filter((a) => a.status === "succeeded");
  const failedAnswers = all.filter((a) => a.status === "failed").length;
  const prevFrom = new Date(from.getTime() - (to.getTime() - from.getTime()));
  const previous = query.compare
    ? (await answersIn(db, monitorId, prevFrom, from)).filter((a) => a.status === "succeeded")
    : null;

  const rates = (cur: MonitorAnswer[], prev: MonitorAnswer[] | null, competitor?: string): RateSet =>
    rateSet(
      countAnswers(cur.map(facts), competitor),
      prev ? countAnswers(prev.map(facts), competitor) : undefined,
    );
  const prevByEngine = previous ? group(previous, (a) => a.engine) : null;
  const prevByCell = previous ? group(previous, (a) => `${a.engine}\u0000${a.prompt}`) : null;

  const byEngine = [...group(ok, (a) => a.engine)].map(([engine, list]) => ({
    engine: engine as EngineName,
    ...rates(list, prevByEngine ? (prevByEngine.get(engine) ?? []) : null),
  }));
  const cells = group(ok, (a) => `${a.engine}\u0000${a.prompt}`);
  const byPrompt = [...cells].map(([key, list]) => {
    const [engine, prompt] = key.split("\u0000") as [EngineName, string];
    return { prompt, engine, ...rates(list, prevByCell ? (prevByCell.get(key) ?? []) : null) };
  });
  const promptOrder = new Map(monitor.prompts.map((p, i) => [p, i]));
  byPrompt.sort(
    (a, b) =>
      (promptOrder.get(a.prompt) ?? 999) - (promptOrder.get(b.prompt) ?? 999) ||
      a.engine.localeCompare(b.engine),
  );
  byEngine.sort((a, b) => a.engine.localeCompare(b.engine));

  const domain = findRegistrableDomain(monitor.domain) ?? monitor.domain;
  const competitors = monitor.competitors.map((c) => ({ domain: c, ...rates(ok, previous, c) }));

  const domainCounts = new Map<string, number>();
  for (const a of ok)
    for (const d of a.citedDomains ?? []) domainCounts.set(d, (domainCounts.get(d) ?? 0) + 1);
  const citedDomains = [...domainCounts]
    .map(([d, count]) => ({ domain: d, count, class: classifyDomain(d, domain, monitor.competitors) }))
    .sort((a, b) => b.count - a.count || a.domain.localeCompare(b.domain))
    .slice(0, 100);

  const groundingDiff: MonitorReport["groundingDiff"] = [];
  for (const [key, list] of cells) {
    const [engine, prompt] = key.split("\u0000") as [EngineName, string];
    const pages = new Map<string, { retrievedIn: number; citedIn: number }>();
    for (const a of list) {
      const own = (urls: string[] | null) =>
        new Set((urls ?? []).filter((u) => findRegistrableDomain(u) === domain));
      const cited = own(a.cited);
      const retrieved = own(a.retrieved);
      for (const url of new Set([...cited, ...retrieved])) {
        const p = pages.get(url) ?? { retrievedIn: 0, citedIn: 0 };
        // A page cited was read, whether or not the engine's API lists it among its results.
        if (retrieved.has(url) || cited.has(url)) p.retrievedIn++;
        if (cited.has(url)) p.citedIn++;
        pages.set(url, p);
      }
    }
    if (pages.size === 0) {
      groundingDiff.push({
        prompt,
        engine,
        url: null,
        state: "not_retrieved",
        retrievedIn: 0,
        citedIn: 0,
        answers: list.length,
      });
      continue;
    }
    for (const [url, p] of pages) {
      groundingDiff.push({
        prompt,
        engine,
        url,
        state: p.citedIn > 0 ? "cited" : "retrieved_not_cited",
        ...p,
        answers: list.length,
      });
    }
  }
  groundingDiff.sort(
    (a, b) =>
      (promptOrder.get(a.prompt) ?? 999) - (promptOrder.get(b.prompt) ?? 999) ||
      a.engine.localeCompare(b.engine) ||
      (a.url ?? "").localeCompare(b.url ?? ""),
  );

  const methods = new Set(ok.map((a) => a.sentimentMethod).filter((m): m is string => m !== null));
  return {
    monitorId,
    domain: monitor.domain,
    period: { from: from.toISOString(), to: to.toISOString() },
    ...(query.compare ? { previousPeriod: { from: prevFrom.toISOString(), to: from.toISOString() } } : {}),
    methods: {
      interval: INTERVAL_METHOD,
      change: CHANGE_METHOD,
      shareOfVoice:
        "The brand's mentions among the mentions of every tracked brand (the domain and its competitors), one per brand per answer.",
      sentiment: [...methods].sort(),
    },
    failedAnswers,
    total: rates(ok, previous),
    byEngine,
    byPrompt,
    competitors,
    citedDomains,
    groundingDiff,
  };
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\n\r]/.test(s) || /^[=+\-@]/.test(s)
    ? `"${s.replace(/^([=+\-@])/, "'$1").replaceAll('"', '""')}"`
    : s;
};

/** The report as CSV: one row per scope and rate, with n, the interval and the change. */
export function reportCsv(report: MonitorReport): string {
  const header = [
    "scope",
    "engine",
    "prompt",
    "competitor",
    "metric",
    "value",
    "n",
    "low",
    "high",
    "delta",
    "significant",
  ];
  const lines = [header.join(",")];
  const push = (scope: string, engine: string, prompt: string, competitor: string, r: RateSet) => {
    for (const metric of ["mentionRate", "citationRate", "shareOfVoice"] as const) {
      const p = r[metric];
      const c = r.change?.[metric];
      lines.push(
        [
          scope,
          engine,
          prompt,
          competitor,
          metric,
          p.value,
          p.n,
          p.low,
          p.high,
          c?.delta,
          c ? c.significant : "",
        ]
          .map(csvCell)
          .join(","),
      );
    }
    lines.push(
      [
        scope,
        engine,
        prompt,
        competitor,
        "averagePosition",
        r.averagePosition.value,
        r.averagePosition.n,
        "",
        "",
        "",
        "",
      ]
        .map(csvCell)
        .join(","),
    );
  };
  push("total", "", "", "", report.total);
  for (const e of report.byEngine) push("engine", e.engine, "", "", e);
  for (const p of report.byPrompt) push("prompt", p.engine, p.prompt, "", p);
  for (const c of report.competitors) push("competitor", "", "", c.domain, c);
  return `${lines.join("\r\n")}\r\n`;
}
