import { and, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { queryInt } from "@/lib/contract/query";
import type { DbOrTx } from "@/lib/db/client";
import { JOB_STATUSES, jobs } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { TOOL_NAMES } from "@/lib/tools/catalog";
import { type JobView, toJobView } from "./view";

export const listJobsQuery = z
  .object({
    status: z.enum(JOB_STATUSES, { error: `Must be one of ${JOB_STATUSES.join(", ")}.` }).optional(),
    tool: z.enum(TOOL_NAMES, { error: "Must be a tool name such as audits or llms-txt." }).optional(),
    limit: queryInt(1, 100, 20),
    cursor: z.string().max(200).optional(),
  })
  .strict();

export type ListJobsQuery = z.output<typeof listJobsQuery>;

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
export async function listJobs(
  db: DbOrTx,
  accountId: string,
  query: ListJobsQuery,
): Promise<{ jobs: Omit<JobView, "result">[]; nextCursor: string | null }> {
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
