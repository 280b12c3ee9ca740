import { and, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
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

// The cursor is the last item's (createdAt, id): stable under inserts, no offset scans.
function encodeCursor(createdAt: Date, id: string) {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new AppError("VALIDATION_ERROR", "cursor is not a cursor this API returned.", {
      field: "cursor",
      issues: [{ field: "cursor", message: "Not a cursor this API returned." }],
    });
  }
  return { createdAt, id };
}

/** The account's jobs, newest first, without results (fetch one job for its result). */
export async function listJobs(db: DbOrTx, accountId: string, query: ListJobsQuery): Promise<JobList> {
  const where: (SQL | undefined)[] = [eq(jobs.accountId, accountId), gt(jobs.expiresAt, new Date())];
  if (query.status) where.push(eq(jobs.status, query.status));
  if (query.tool) where.push(eq(jobs.tool, query.tool));
  if (query.cursor) {
    const c = decodeCursor(query.cursor);
    where.push(or(lt(jobs.createdAt, c.createdAt), and(eq(jobs.createdAt, c.createdAt), lt(jobs.id, c.id))));
  }
  const rows = await db
    .select()
    .from(jobs)
    .where(and(...where))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    jobs: page.map((j) => {
      const { result: _omit, ...view } = toJobView(j);
      return view;
    }),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}
