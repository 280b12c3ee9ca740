import { and, desc, eq, gt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { inPostgresYears, isCalendarDay } from "@/lib/calendar";
import { queryInt } from "@/lib/contract/query";
import type { DbOrTx } from "@/lib/db/client";
import { JOB_STATUSES, jobs } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { TOOL_NAMES } from "@/lib/tools/catalog";
import { jobSummary, toJobView } from "./view";

/** Longest cursor taken (an encoded timestamp and id are far shorter). */
const CURSOR_CHARS = 200;

/** Jobs per page of GET /jobs (and MCP list_jobs). */
export const JOBS_PAGE = { min: 1, max: 100, default: 20 } as const;

export const listJobsQuery = z
  .object({
    status: z.enum(JOB_STATUSES, { error: `Must be one of ${JOB_STATUSES.join(", ")}.` }).optional(),
    tool: z.enum(TOOL_NAMES, { error: "Must be a tool name such as audits or llms-txt." }).optional(),
    limit: queryInt(JOBS_PAGE.min, JOBS_PAGE.max, JOBS_PAGE.default).describe(
      `Jobs per page (default ${JOBS_PAGE.default}, max ${JOBS_PAGE.max})`,
    ),
    cursor: z.string().max(CURSOR_CHARS).optional(),
  })
  .strict();

export type ListJobsQuery = z.output<typeof listJobsQuery>;

export const jobList = z.object({
  jobs: z.array(jobSummary),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page."),
});
export type JobList = z.infer<typeof jobList>;

// The cursor is the last item's (created_at, id): stable under inserts, no offset scans. The time travels as Postgres
// stores it, to the microsecond: jobs created within one millisecond are ordered by their microseconds, and a cursor
// cut to milliseconds skipped those created in the same millisecond before the last one listed.
function encodeCursor(createdAt: string, id: string) {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

/** created_at as UTC ISO 8601 text with microseconds (a Date holds milliseconds). */
const CURSOR_TIME = sql<string>`to_char(${jobs.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const CURSOR_ISO =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?Z$/;

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  // Cursors written before microseconds (milliseconds, as Date.toISOString writes them) still read.
  const valid =
    iso !== undefined && CURSOR_ISO.test(iso) && isCalendarDay(iso) && inPostgresYears(new Date(iso));
  if (!valid || !id || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new AppError("VALIDATION_ERROR", "cursor is not a cursor this API returned.", {
      field: "cursor",
      issues: [{ field: "cursor", message: "Not a cursor this API returned." }],
    });
  }
  return { createdAt: iso, id };
}

/** The account's jobs, newest first, without results (fetch one job for its result). */
export async function listJobs(db: DbOrTx, accountId: string, query: ListJobsQuery): Promise<JobList> {
  const where: (SQL | undefined)[] = [eq(jobs.accountId, accountId), gt(jobs.expiresAt, new Date())];
  if (query.status) where.push(eq(jobs.status, query.status));
  if (query.tool) where.push(eq(jobs.tool, query.tool));
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    // A row comparison: it bounds the scan of (account_id, created_at, id) where an "or" only filtered it.
    where.push(sql`(${jobs.createdAt}, ${jobs.id}) < (${c.createdAt}::timestamptz, ${c.id}::uuid)`);
  }
  const rows = await db
    .select({ job: jobs, cursorTime: CURSOR_TIME })
    .from(jobs)
    .where(and(...where))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    jobs: page.map(({ job }) => {
      const { result: _omit, ...view } = toJobView(job);
      return view;
    }),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.cursorTime, last.job.id) : null,
  };
}
