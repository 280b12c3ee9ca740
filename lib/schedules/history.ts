import { and, desc, eq, sql } from "drizzle-orm";
import type { ComparableCheck, ResultSnapshot } from "@/lib/analysis/compare-results";
import type { DbOrTx } from "@/lib/db/client";
import { auditScheduleRuns } from "@/lib/db/schema";
import { decodeCursor, encodeCursor } from "@/lib/monitors/cursor";
import { completedRuns, historyRunView } from "./runs";
import type { HistoryList, HistoryQuery, HistoryRun, ScheduleView } from "./schemas";
import { requireSchedule, scheduleView } from "./service";

/** A schedule's runs, newest first (kept 13 months), each with its scores and its changes against the run before. */
export async function listHistory(
  db: DbOrTx,
  accountId: string,
  scheduleId: string,
  query: HistoryQuery,
): Promise<HistoryList> {
  await requireSchedule(db, accountId, scheduleId);
  const where = [eq(auditScheduleRuns.scheduleId, scheduleId)];
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    where.push(
      sql`(${auditScheduleRuns.createdAt}, ${auditScheduleRuns.id}) < (${c.createdAt}::timestamptz, ${c.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      r: auditScheduleRuns,
      t: sql<string>`to_char(${auditScheduleRuns.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(auditScheduleRuns)
    .where(and(...where))
    .orderBy(desc(auditScheduleRuns.createdAt), desc(auditScheduleRuns.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    runs: page.map((p) => historyRunView(p.r)),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.t, last.r.id) : null,
  };
}

interface OpenIssue {
  id: string;
  title: string;
  severity: string | null;
  status: "warn" | "fail";
  message: string;
  /** When the issue was first seen failing in the unbroken streak of completed runs that ends with the latest. */
  since: string;
  /** How many completed runs in a row it has been open. */
  runs: number;
}

export interface ScheduleOverview {
  schedule: ScheduleView;
  /** Completed runs, oldest first: the trend of each score (and the vitals of Core Web Vitals). */
  trend: { runId: string; at: string; scores: Record<string, number>; vitals: HistoryRun["vitals"] }[];
  openIssues: OpenIssue[];
  /** The latest run of any status (a skipped or failed run shows why). */
  latest: HistoryRun | null;
  /** The latest completed run, with what changed against the run before it. */
  lastCompleted: HistoryRun | null;
}

const failing = (snapshot: ResultSnapshot | null): Map<string, ComparableCheck> => {
  const out = new Map<string, ComparableCheck>();
  for (const c of snapshot?.checks ?? []) {
    if (c.status === "pass") continue;
    const seen = out.get(c.id);
    if (!seen || (seen.status === "warn" && c.status === "fail")) out.set(c.id, c);
  }
  return out;
};

/** A schedule with its score trend, its open issues and how long each has been open, and its last changes. */
export async function scheduleOverview(
  db: DbOrTx,
  accountId: string,
  scheduleId: string,
): Promise<ScheduleOverview> {
  const schedule = await requireSchedule(db, accountId, scheduleId);
  const runs = await completedRuns(db, scheduleId);
  const [latestRow] = await db
    .select()
    .from(auditScheduleRuns)
    .where(eq(auditScheduleRuns.scheduleId, scheduleId))
    .orderBy(desc(auditScheduleRuns.createdAt), desc(auditScheduleRuns.id))
    .limit(1);
  const newest = runs[0];
  const openIssues: OpenIssue[] = [];
  if (newest) {
    const now = failing(newest.snapshot as ResultSnapshot | null);
    for (const [id, check] of now) {
      let since = newest;
      let count = 1;
      for (const older of runs.slice(1)) {
        if (!failing(older.snapshot as ResultSnapshot | null).has(id)) break;
        since = older;
        count++;
      }
      openIssues.push({
        id,
        title: check.title ?? id,
        severity: check.severity ?? null,
        status: check.status as "warn" | "fail",
        message: check.message ?? "",
        since: since.createdAt.toISOString(),
        runs: count,
      });
    }
    const rank = (i: OpenIssue) => (i.severity === "error" || i.status === "fail" ? 0 : 1);
    openIssues.sort((a, b) => rank(a) - rank(b) || a.since.localeCompare(b.since));
  }
  return {
    schedule: scheduleView(schedule),
    trend: [...runs].reverse().map((r) => ({
      runId: r.id,
      at: r.createdAt.toISOString(),
      scores: r.scores ?? {},
      vitals: (r.vitals as HistoryRun["vitals"]) ?? null,
    })),
    openIssues,
    latest: latestRow ? historyRunView(latestRow) : null,
    lastCompleted: newest ? historyRunView(newest) : null,
  };
}
