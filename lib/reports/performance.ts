import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { jobs } from "@/lib/db/schema";
import type { PerformanceReport } from "./api-schemas";
import { visibilityTotals } from "./visibility";

const PERIOD_DAYS = { week: 7, month: 30 } as const;
const AUDIT_TOOLS = ["audits", "seo-aeo-geo-audit"] as const;

const dayStart = (d: Date, back: number) =>
  new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - back));
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

function change(current: number, previous: number) {
  return {
    current,
    previous,
    change: previous === 0 ? null : Math.round(((current - previous) / previous) * 10_000) / 10_000,
  };
}

/** Merges two keyed count lists into current/previous/change rows, largest current first. */
function compare<K extends string>(
  key: K,
  current: Map<string, number>,
  previous: Map<string, number>,
  limit = 50,
) {
  const keys = new Set([...current.keys(), ...previous.keys()]);
  return [...keys]
    .map(
      (k) =>
        ({ [key]: k, ...change(current.get(k) ?? 0, previous.get(k) ?? 0) }) as Record<K, string> &
          ReturnType<typeof change>,
    )
    .sort(
      (a, b) =>
        b.current - a.current || b.previous - a.previous || String(a[key]).localeCompare(String(b[key])),
    )
    .slice(0, limit);
}

/**
 * GET /api/analytics/reports: a registered domain's performance over the last week (7 UTC days, today included)
 * or month (30), against the period before it: bot visits by bot and purpose (from the daily rollup), AI
 * citations by engine (rollup) and page (the citation index), AI visibility (observations), and the latest
 * audit scores of the domain's pages (completed audits / seo-aeo-geo-audit jobs, kept 7 days).
 */
export async function getPerformanceReport(
  db: Db,
  accountId: string,
  q: { domain: string; period: "week" | "month"; now?: Date },
): Promise<PerformanceReport> {
  const domain = await requireRegisteredDomain(db, accountId, q.domain);
  const now = q.now ?? new Date();
  const days = PERIOD_DAYS[q.period];
  const curFrom = dayStart(now, days - 1);
  const end = dayStart(now, -1);
  const prevFrom = dayStart(now, 2 * days - 1);

  const bots = rowsOf<{ bot: string; purpose: string | null; ai: boolean; cur: string; prev: string }>(
    await db.execute(sql`
      select bot_name as bot, min(bot_purpose) as purpose, bool_or(is_ai_bot) as ai,
        coalesce(sum(visits) filter (where day >= ${isoDay(curFrom)}::date), 0)::text as cur,
        coalesce(sum(visits) filter (where day < ${isoDay(curFrom)}::date), 0)::text as prev
      from tracking_daily_bots
      where domain_id = ${domain.id} and day >= ${isoDay(prevFrom)}::date and day < ${isoDay(end)}::date
      group by bot_name`),
  );
  const engines = rowsOf<{ engine: string; cur: string; prev: string }>(
    await db.execute(sql`
      select engine,
        coalesce(sum(citations) filter (where day >= ${isoDay(curFrom)}::date), 0)::text as cur,
        coalesce(sum(citations) filter (where day < ${isoDay(curFrom)}::date), 0)::text as prev
      from tracking_daily_citations
      where domain_id = ${domain.id} and day >= ${isoDay(prevFrom)}::date and day < ${isoDay(end)}::date
      group by engine`),
  );
  const pages = rowsOf<{ path: string; cur: string; prev: string }>(
    await db.execute(sql`
      select split_part(path, '?', 1) as path,
        count(*) filter (where occurred_at >= ${curFrom.toISOString()}::timestamptz)::text as cur,
        count(*) filter (where occurred_at < ${curFrom.toISOString()}::timestamptz)::text as prev
      from visits
      where domain_id = ${domain.id} and citation_engine is not null
        and occurred_at >= ${prevFrom.toISOString()}::timestamptz and occurred_at < ${end.toISOString()}::timestamptz
      group by 1`),
  );
  const map = <R>(rows: R[], key: (r: R) => string, value: (r: R) => string) => {
    const m = new Map<string, number>();
    for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + Number(value(r)));
    return m;
  };
  const byPurpose = compare(
    "purpose",
    map(
      bots,
      (r) => r.purpose ?? "other",
      (r) => r.cur,
    ),
    map(
      bots,
      (r) => r.purpose ?? "other",
      (r) => r.prev,
    ),
  );
  const byBot = compare(
    "bot",
    map(
      bots,
      (r) => r.bot,
      (r) => r.cur,
    ),
    map(
      bots,
      (r) => r.bot,
      (r) => r.prev,
    ),
  ).map((row) => {
    const meta = bots.find((b) => b.bot === row.bot);
    return { ...row, purpose: meta?.purpose ?? null, isAIBot: Boolean(meta?.ai) };
  });
  const sum = (rows: { cur: string; prev: string }[]) =>
    change(
      rows.reduce((s, r) => s + Number(r.cur), 0),
      rows.reduce((s, r) => s + Number(r.prev), 0),
    );

  const [vCur, vPrev] = await Promise.all([
    visibilityTotals(db, accountId, domain.hostname, curFrom, end),
    visibilityTotals(db, accountId, domain.hostname, prevFrom, curFrom),
  ]);

  return {
    domain: domain.hostname,
    period: q.period,
    current: { from: isoDay(curFrom), to: isoDay(dayStart(now, 0)) },
    previous: { from: isoDay(prevFrom), to: isoDay(dayStart(now, days)) },
    botVisits: { total: sum(bots), byBot, byPurpose },
    citations: {
      total: sum(engines),
      byEngine: compare(
        "engine",
        map(
          engines,
          (r) => r.engine,
          (r) => r.cur,
        ),
        map(
          engines,
          (r) => r.engine,
          (r) => r.prev,
        ),
      ),
      byPage: compare(
        "path",
        map(
          pages,
          (r) => r.path,
          (r) => r.cur,
        ),
        map(
          pages,
          (r) => r.path,
          (r) => r.prev,
        ),
      ),
    },
    visibility: {
      checks: change(vCur.checks, vPrev.checks),
      citationRate: change(vCur.citationRate, vPrev.citationRate),
      mentionRate: change(vCur.mentionRate, vPrev.mentionRate),
      visibilityScore: change(vCur.visibilityScore, vPrev.visibilityScore),
    },
    audits: await latestAudits(db, accountId, domain.hostname),
  };
}

function auditScores(tool: string, result: unknown): Record<string, number> {
  const r = (result ?? {}) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  const sub = (k: string) => num((r[k] as Record<string, unknown> | undefined)?.score);
  const scores: Record<string, number | undefined> =
    tool === "audits"
      ? { score: num(r.score) }
      : { overall: num(r.overall), seo: sub("seo"), aeo: sub("aeo"), geo: sub("geo") };
  return Object.fromEntries(Object.entries(scores).filter(([, v]) => v !== undefined)) as Record<
    string,
    number
  >;
}

/** The newest completed audit per tool and page of the domain (or its www. twin), with the one before it. */
async function latestAudits(db: Db, accountId: string, hostname: string) {
  const rows = await db
    .select({
      id: jobs.id,
      tool: jobs.tool,
      input: jobs.input,
      result: jobs.result,
      completedAt: jobs.completedAt,
    })
    .from(jobs)
    .where(
      and(
        eq(jobs.accountId, accountId),
        eq(jobs.status, "completed"),
        inArray(jobs.tool, [...AUDIT_TOOLS]),
        isNotNull(jobs.completedAt),
      ),
    )
    .orderBy(desc(jobs.completedAt))
    .limit(500);
  const bare = hostname.replace(/^www\./, "");
  const seen = new Map<string, PerformanceReport["audits"][number]>();
  for (const row of rows) {
    const url = String((row.input as { url?: unknown })?.url ?? "");
    let host = "";
    try {
      host = new URL(url).hostname.replace(/^www\./, "");
    } catch {
      continue;
    }
    if (host !== bare) continue;
    const key = `${row.tool}|${url}`;
    const existing = seen.get(key);
    if (!existing) {
      seen.set(key, {
        tool: row.tool,
        jobId: row.id,
        url,
        completedAt: row.completedAt!.toISOString(),
        scores: auditScores(row.tool, row.result),
        previousScores: null,
      });
    } else if (!existing.previousScores) {
      existing.previousScores = auditScores(row.tool, row.result);
    }
  }
  return [...seen.values()].slice(0, 20);
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : String(v);
  // Quotes where needed, and a leading ' where a spreadsheet would read a formula.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The same report as CSV: one row per figure (section, item, current, previous, change). */
export function reportToCsv(r: PerformanceReport): string {
  const lines: unknown[][] = [["section", "item", "detail", "current", "previous", "change"]];
  const add = (
    section: string,
    item: string,
    detail: string,
    c: { current: number; previous: number; change: number | null },
  ) => lines.push([section, item, detail, c.current, c.previous, c.change]);
  add("bot_visits", "total", "", r.botVisits.total);
  for (const b of r.botVisits.byBot) add("bot_visits_by_bot", b.bot, b.purpose ?? "", b);
  for (const p of r.botVisits.byPurpose) add("bot_visits_by_purpose", p.purpose, "", p);
  add("citations", "total", "", r.citations.total);
  for (const e of r.citations.byEngine) add("citations_by_engine", e.engine, "", e);
  for (const p of r.citations.byPage) add("citations_by_page", p.path, "", p);
  for (const k of ["checks", "citationRate", "mentionRate", "visibilityScore"] as const) {
    add("visibility", k, "", r.visibility[k]);
  }
  for (const a of r.audits) {
    for (const [k, v] of Object.entries(a.scores)) {
      const prev = a.previousScores?.[k];
      lines.push([
        "audit",
        `${a.tool} ${k}`,
        a.url,
        v,
        prev ?? "",
        prev ? Math.round(((v - prev) / prev) * 10_000) / 10_000 : "",
      ]);
    }
  }
  return `${lines.map((l) => l.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
