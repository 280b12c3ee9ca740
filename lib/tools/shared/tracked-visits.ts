// Read-only: the bot visits tracking recorded for the audited site, when the job's account registered its
// domain. Read from the daily rollup (one row per domain, day and bot), never from the raw visits.
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { TrackedVisits } from "@/lib/analysis/ai-access/matrix";
import type { DbOrTx } from "@/lib/db/client";
import { domains, trackingDailyBots } from "@/lib/db/schema";

const TRACKING_DAYS = 30;

/** The account's registered domain for a hostname: itself, or its www. twin either way. */
async function findDomain(db: DbOrTx, accountId: string, hostname: string) {
  const host = hostname.toLowerCase();
  const twin = host.startsWith("www.") ? host.slice(4) : `www.${host}`;
  const rows = await db
    .select({ id: domains.id, hostname: domains.hostname })
    .from(domains)
    .where(and(eq(domains.accountId, accountId), inArray(domains.hostname, [host, twin])));
  return rows.find((r) => r.hostname === host) ?? rows[0] ?? null;
}

/**
 * Visits per bot name over the last TRACKING_DAYS UTC days, or null when the domain is not registered to the
 * account or tracking recorded no bot visit for it in that time (then "has not visited" would mean nothing).
 */
export async function readTrackedVisits(
  db: DbOrTx,
  accountId: string,
  hostname: string,
  now = new Date(),
): Promise<{ days: number; byBot: Map<string, TrackedVisits> } | null> {
  const domain = await findDomain(db, accountId, hostname);
  if (!domain) return null;
  const since = new Date(now.getTime() - (TRACKING_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await db
    .select({
      bot: trackingDailyBots.botName,
      visits: sql<string>`sum(${trackingDailyBots.visits})::text`,
      verified: sql<string>`sum(${trackingDailyBots.verifiedVisits})::text`,
      spoofed: sql<string>`sum(${trackingDailyBots.spoofedVisits})::text`,
    })
    .from(trackingDailyBots)
    .where(and(eq(trackingDailyBots.domainId, domain.id), gte(trackingDailyBots.day, since)))
    .groupBy(trackingDailyBots.botName);
  if (rows.length === 0) return null;
  const byBot = new Map<string, TrackedVisits>();
  for (const r of rows) {
    byBot.set(r.bot, { visits: Number(r.visits), verified: Number(r.verified), spoofed: Number(r.spoofed) });
  }
  return { days: TRACKING_DAYS, byBot };
}
