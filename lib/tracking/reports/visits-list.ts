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

/** A page's end: the last visit's time and event key (a visit's key within its domain and instant). */
const encodeCursor = (at: Date, key: string) =>
  Buffer.from(`${at.toISOString()}|${key}`).toString("base64url");

function decodeCursor(cursor: string): { at: Date; key: string } {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const bar = text.indexOf("|");
  const date = new Date(bar < 0 ? "" : text.slice(0, bar));
  const key = text.slice(bar + 1);
  // A time outside years 1-9999 is none this endpoint wrote (and Postgres refuses some of them: a 500, not a 400);
  // an event key is computed ("t:") or a client's id ("id:").
  if (bar < 0 || !inPostgresYears(date) || !/^(t|id):/.test(key)) {
    throw validationError("The cursor is not one this endpoint returned.", [
      { field: "cursor", message: "Not a cursor from a previous page." },
    ]);
  }
  return { at: date, key };
}

/** A stored verification in the API's words: a disproved claim is "spoofed", an undecided one "unverified". */
export function apiVerification(stored: Visit["verification"]): "verified" | "spoofed" | "unverified" {
  return stored === "verified" ? "verified" : stored === "unverified" ? "spoofed" : "unverified";
}

/**
 * GET /api/tracking/visits: bot visits (AI and search) of a registered domain (403 otherwise), newest first,
 * keyset-paginated on (occurred_at, event_key) so pages stay stable while visits arrive.
 */
export async function listBotVisits(db: Db, accountId: string, q: VisitsQuery) {
  const domain = await requireRegisteredDomain(db, accountId, q.domain);
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const rows = await db
    .select({
      id: visits.id,
      key: visits.eventKey,
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
        // A row comparison: the index's bound, where "earlier, or as early with a smaller key" was a filter.
        after
          ? sql`(${visits.occurredAt}, ${visits.eventKey}) < (${after.at.toISOString()}::timestamptz, ${after.key})`
          : undefined,
        // The same bound on the time alone, which Postgres prunes the visits' months by (a row comparison it
        // does not): the months after the cursor are not scanned.
        after ? lte(visits.occurredAt, after.at) : undefined,
      ),
    )
    // Each month's primary key (domain_id, occurred_at, event_key) read backward, the months merged in order, no
    // sort (plain "desc": the index is ascending, nulls last; the key's collation is the column's, "C").
    .orderBy(desc(visits.occurredAt), desc(visits.eventKey))
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
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.at, last.key) : null,
  };
}
