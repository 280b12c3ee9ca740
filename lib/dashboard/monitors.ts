// The dashboard's monitors layer: the monitors' services behind the roles (owner and admin change, members
// read), every input parsed with the API's own schemas, and every refusal a form error naming its field.
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { listDomains } from "@/lib/accounts/domains";
import type { Db } from "@/lib/db/client";
import { accountNotices, monitorRuns } from "@/lib/db/schema";
import type { GuardedFetch } from "@/lib/fetch/types";
import {
  createMonitor,
  deleteMonitor,
  getMonitor,
  listMonitors,
  listRuns,
  MONITOR_LIMITS,
  MONITORS_PAGE,
  type MonitorView,
  monitorCreateInput,
  monitorReport,
  monitorUpdateInput,
  pauseMonitor,
  RUNS_PAGE,
  reportCsv,
  reportQuery,
  resumeMonitor,
  runMonitorNow,
  suggestPrompts,
  updateMonitor,
} from "@/lib/monitors";
import { resolvePeriod } from "@/lib/monitors/report";
import { runSeries } from "@/lib/monitors/series";
import type { Env } from "@/lib/providers/engine-types";
import { listConfiguredEngines } from "@/lib/providers/engines";
import { asForm, parseForm } from "./form-errors";
import type { Actor } from "./members";
import { requireManager } from "./members";

/** The notice kinds the monitors write (lib/monitors/finalize.ts and notify.ts). */
const MONITOR_NOTICE_KINDS = [
  "visibility.changed",
  "citation.gained",
  "citation.lost",
  "monitor.run_skipped",
  "monitor.run_failed",
] as const;

export interface LastRun {
  id: string;
  status: string;
  skipReason: string | null;
  createdAt: string;
  creditsCharged: number;
  creditsRefunded: number;
}

/** Every monitor of the account (newest first) with its latest run. */
export async function monitorsOverview(db: Db, actor: Actor) {
  const monitors: MonitorView[] = [];
  let cursor: string | undefined;
  // A page of the API at a time; an account is bounded by its domains, so a few pages at most.
  for (let page = 0; page < 50; page++) {
    const list = await listMonitors(db, actor.accountId, { limit: MONITORS_PAGE.max, cursor });
    monitors.push(...list.monitors);
    if (!list.nextCursor) break;
    cursor = list.nextCursor;
  }
  const ids = monitors.map((m) => m.id);
  const runs = ids.length
    ? await db
        .selectDistinctOn([monitorRuns.monitorId])
        .from(monitorRuns)
        .where(and(eq(monitorRuns.accountId, actor.accountId), inArray(monitorRuns.monitorId, ids)))
        .orderBy(monitorRuns.monitorId, desc(monitorRuns.createdAt))
    : [];
  const last = new Map<string, LastRun>(
    runs.map((r) => [
      r.monitorId,
      {
        id: r.id,
        status: r.status,
        skipReason: r.skipReason,
        createdAt: r.createdAt.toISOString(),
        creditsCharged: r.creditsCharged,
        creditsRefunded: r.creditsRefunded,
      },
    ]),
  );
  return monitors.map((m) => ({ ...m, lastRun: last.get(m.id) ?? null }));
}

/** The form's bounds, the API's own. */
export const MONITOR_FORM_LIMITS = {
  prompts: MONITOR_LIMITS.prompts,
  competitors: MONITOR_LIMITS.competitors,
  samplesMax: MONITOR_LIMITS.samples.max,
  samplesDefault: MONITOR_LIMITS.samples.default,
};

/** What the create and edit forms offer: the registered domains and the engines this service can ask. */
export async function monitorFormOptions(db: Db, actor: Actor, env: Env = process.env) {
  const domains = await listDomains(db, actor.accountId);
  return { domains: domains.map((d) => d.hostname), engines: listConfiguredEngines(env) };
}

export async function createMonitorAs(db: Db, actor: Actor, raw: unknown, env: Env = process.env) {
  requireManager(actor);
  const input = parseForm(monitorCreateInput, raw);
  return asForm(() => createMonitor(db, actor.accountId, input, env));
}

export async function updateMonitorAs(
  db: Db,
  actor: Actor,
  id: string,
  raw: unknown,
  env: Env = process.env,
) {
  requireManager(actor);
  const input = parseForm(monitorUpdateInput, raw);
  return asForm(() => updateMonitor(db, actor.accountId, id, input, env));
}

export async function deleteMonitorAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => deleteMonitor(db, actor.accountId, id));
}

export async function pauseMonitorAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => pauseMonitor(db, actor.accountId, id));
}

export async function resumeMonitorAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => resumeMonitor(db, actor.accountId, id));
}

/** A run now, charged like a scheduled one; a balance or cap that cannot cover it is a form error. */
export async function runMonitorNowAs(db: Db, actor: Actor, id: string) {
  requireManager(actor);
  return asForm(() => runMonitorNow(db, actor.accountId, id));
}

/** The ten suggested prompts of a registered domain (read from the site itself; nothing is charged). */
export async function suggestPromptsAs(
  db: Db,
  actor: Actor,
  domain: string,
  opts: { fetch?: GuardedFetch; signal?: AbortSignal } = {},
) {
  requireManager(actor);
  return asForm(() => suggestPrompts(db, actor.accountId, domain, opts));
}

export async function getMonitorAs(db: Db, actor: Actor, id: string) {
  return asForm(() => getMonitor(db, actor.accountId, id));
}

/** Open notices about one monitor (they name it by its label, as the services write them). */
export async function monitorNotices(db: Db, actor: Actor, monitor: Pick<MonitorView, "name" | "domain">) {
  const label = `"${monitor.name ?? monitor.domain}"`;
  const rows = await db
    .select({
      id: accountNotices.id,
      kind: accountNotices.kind,
      message: accountNotices.message,
      createdAt: accountNotices.createdAt,
    })
    .from(accountNotices)
    .where(
      and(
        eq(accountNotices.accountId, actor.accountId),
        isNull(accountNotices.dismissedAt),
        inArray(accountNotices.kind, [...MONITOR_NOTICE_KINDS]),
      ),
    )
    .orderBy(desc(accountNotices.createdAt))
    .limit(200);
  return rows.filter((n) => n.message.includes(label)).slice(0, 20);
}

/**
 * The report page's data: the report for the period (and the previous one when compared), the brand's rates
 * per run for the trend, and the latest runs with their answers. A bad period is a form error, never a 500.
 */
export async function monitorReportPage(
  db: Db,
  actor: Actor,
  id: string,
  raw: { from?: string; to?: string; compare?: string; runs?: string },
  now = new Date(),
) {
  const query = parseForm(reportQuery, {
    ...(raw.from ? { from: raw.from } : {}),
    ...(raw.to ? { to: raw.to } : {}),
    ...(raw.compare === "previous" ? { compare: "previous" } : {}),
  });
  return asForm(async () => {
    const report = await monitorReport(db, actor.accountId, id, query, now);
    const period = resolvePeriod(query, now);
    const runLimit = Math.min(Math.max(Number(raw.runs) || 5, 1), RUNS_PAGE.max);
    const [series, runs] = await Promise.all([
      runSeries(db, actor.accountId, id, period),
      listRuns(db, actor.accountId, id, { limit: runLimit }),
    ]);
    return { report, series, runs: runs.runs, moreRuns: runs.nextCursor !== null, runLimit };
  });
}

/** The report for a period as CSV (the API's own columns), with a file name naming the domain and period. */
export async function monitorReportCsv(
  db: Db,
  actor: Actor,
  id: string,
  raw: { from?: string; to?: string; compare?: string },
  now = new Date(),
) {
  const query = parseForm(reportQuery, {
    ...(raw.from ? { from: raw.from } : {}),
    ...(raw.to ? { to: raw.to } : {}),
    ...(raw.compare === "previous" ? { compare: "previous" } : {}),
  });
  const report = await asForm(() => monitorReport(db, actor.accountId, id, query, now));
  const day = (iso: string) => iso.slice(0, 10);
  return {
    csv: reportCsv(report),
    filename: `monitor-${report.domain}-${day(report.period.from)}-${day(report.period.to)}.csv`,
  };
}
