import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";

/**
 * What a job was run on, in a few words: its URL, domain, keyword or prompt (the first of a list, with how many
 * more). Null when the input names none of these.
 */
export function jobTarget(input: unknown): string | null {
  if (!input || typeof input !== "object") return null;
  const i = input as Record<string, unknown>;
  const list = (value: unknown) =>
    Array.isArray(value) && typeof value[0] === "string"
      ? value.length > 1
        ? `${value[0]} and ${value.length - 1} more`
        : value[0]
      : null;
  for (const key of ["url", "target", "domain", "keyword"]) {
    if (typeof i[key] === "string" && i[key]) return i[key] as string;
  }
  const fromList = list(i.domains) ?? list(i.keywords);
  if (fromList) return fromList;
  if (typeof i.prompt === "string" && i.prompt) {
    return i.prompt.length > 80 ? `${i.prompt.slice(0, 79)}…` : i.prompt;
  }
  return null;
}

/** The targets of the account's jobs `ids`, by job id (the jobs list shows them beside each job). */
export async function getJobTargets(
  db: DbOrTx,
  accountId: string,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: jobs.id, input: jobs.input })
    .from(jobs)
    .where(and(eq(jobs.accountId, accountId), inArray(jobs.id, ids)));
  const out = new Map<string, string>();
  for (const r of rows) {
    const target = jobTarget(r.input);
    if (target) out.set(r.id, target);
  }
  return out;
}
