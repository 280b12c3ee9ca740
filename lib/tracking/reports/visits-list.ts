import { and, desc, eq, gte, isNotNull, lt, lte, sql } from "drizzle-orm";
import { requireRegisteredDomain } from "@/lib/accounts/domains";
import { inPostgresYears } from "@/lib/calendar";
import type { Db } from "@/lib/db/client";
import { type Visit, visits } from "@/lib/db/schema";
import { validationError } from "@/lib/errors";

export interface VisitsQuery {
  domain: string;
  from?: Date;
  to?: Date;
  bot?: string;
  aiOnly?: boolean;
  cursor?: string;
  limit: number;
}

const encodeCursor = (at: Date, id: number) => Buffer.from(`${at.toISOString()}|${id}`).toString("base64url");

function decodeCursor(cursor: string): { at: Date; id: number } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const date = new Date(at ?? "");
  const n = Number(id);
  // A time outside years 1-9999 is none this endpoint wrote (and Postgres refuses some of them: a 500, not a 400).
  if (!inPostgresYears(date) || !Number.isSafeInteger(n) || n <= 0) {
    throw validationError("The cursor is not one this endpoint returned.", [
      { field: "cursor", message: "Not a cursor from a previous page." },
    ]);
  }
  return { at: date, id: n };
}

/** A stored verification in the API's words: a disproved claim is "spoofed", an undecided one "unverified". */
export function apiVerification(stored: Visit["verification"]): "verified" | "spoofed" | "unverified" {
  return stored === "verified" ? "verified" : stored === "unverified" ? "spoofed" : "unverified";
}

/**
 * GET /api/tracking/visits: bot visits (AI and search) of a registered domain (403 otherwise), newest first,
 * keyset-paginated on (occurred_at, id) so pages stay stable while visits arrive.
 */
export async function listBotVisits(db: Db, accountId: string, q: VisitsQuery) {
  const domain = await requireRegisteredDomain(db, accountId, q.domain);
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const rows = await db
    .select({
      id: visits.id,
      at: visits.occurredAt,
      path: visits.path,
      bot: visits.botName,
      purpose: visits.botPurpose,
      isAiBot: visits.isAiBot,
      verification: visits.verification,
      verificationMethod: visits.verificationMethod,
      status: visits.status,
    })
    .from(visits)
    .where(
      and(
        eq(visits.domainId, domain.id),
        isNotNull(visits.botName),
        q.from ? gte(visits.occurredAt, q.from) : undefined,
        q.to ? lt(visits.occurredAt, q.to) : undefined,
        q.bot ? sql`lower(${visits.botName}) = ${q.bot.toLowerCase()}` : undefined,
        q.aiOnly ? eq(visits.isAiBot, true) : undefined,
        // A row comparison: the index's bound, where "earlier, or as early with a smaller id" was a filter.
        after
          ? sql`(${visits.occurredAt}, ${visits.id}) < (${after.at.toISOString()}::timestamptz, ${after.id}::bigint)`
          : undefined,
        // The same bound on the time alone, which Postgres prunes the visits' months by (a row comparison it
        // does not): the months after the cursor are not scanned.
        after ? lte(visits.occurredAt, after.at) : undefined,
      ),
    )
    // Each month's visits_domain_time_idx read backward, the months merged in order, no sort (plain "desc": the
    // index is ascending, nulls last).
    .orderBy(desc(visits.occurredAt), desc(visits.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    domain: domain.hostname,
    visits: page.map((r) => ({
      id: String(r.id),
      timestamp: r.at.toISOString(),
      path: r.path,
      bot: r.bot ?? "",
      purpose: r.purpose,
      isAIBot: r.isAiBot,
      verification: apiVerification(r.verification),
      verificationMethod: r.verification === "unknown" ? null : (r.verificationMethod ?? null),
      status: r.status,
    })),
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.at, last.id) : null,
  };
}
