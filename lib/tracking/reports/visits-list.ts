import { requireRegisteredDomain } from "@/lib/accounts/domains";
import { inPostgresYears } from "@/lib/calendar";
import type { Db } from "@/lib/db/client";
import type { Visit } from "@/lib/db/schema";
import { validationError } from "@/lib/errors";
import { rawVisits } from "../raw-visits/store";

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
  // an event key is computed ("t:") or a client's id ("id:", at most 128 characters), never holds a NUL (which
  // Postgres refuses in text).
  if (bar < 0 || !inPostgresYears(date) || !/^(t|id):/.test(key) || key.length > 200 || key.includes("\0")) {
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
  // One more than the page: whether there is a next page.
  const rows = await rawVisits.botVisits(db, {
    domainId: domain.id,
    from: q.from,
    to: q.to,
    bot: q.bot,
    aiOnly: q.aiOnly,
    after: after ?? undefined,
    limit: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    domain: domain.hostname,
    visits: page.map((r) => ({
      // A visit's identity within its domain, opaque: its time and event key (a client's id may recur at another
      // time), encoded as the cursor that lists the visits after it.
      id: encodeCursor(r.at, r.key),
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
