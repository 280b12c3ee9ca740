import { and, eq, gte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { trackingDailyBots } from "@/lib/db/schema";

interface PeriodBot {
  name: string;
  purpose: string;
  isAIBot: boolean;
  visits: number;
  /**
   * Visits whose address the operator's published ranges (or its documented reverse DNS) confirmed, visits
   * that claim the bot from an address the operator does not use (spoofed), and the rest (not checkable).
   */
  verified: number;
  unverified: number;
  spoofed: number;
  /** Of `verified`, by the method that decided (visits verified before methods were recorded are in none). */
  verifiedBy: { signature: number; ip: number; rdns: number };
}

export interface BotPeriod {
  days: number;
  totalVisits: number;
  aiBotVisits: number;
  uniqueBots: number;
  verifiedVisits: number;
  topBots: PeriodBot[];
}

const TOP = 10;

/** UTC midnight `days - 1` days before `now`: the first day of a period that includes today. */
export function periodStart(days: number, now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
}

/**
 * The bots page's figures for the selected period (today included): totals and top bots from the daily rollup,
 * and how many of the period's visits by those bots came from their operator's published addresses.
 */
export async function getBotPeriod(
  db: DbOrTx,
  domainId: string,
  days: number,
  now = new Date(),
): Promise<BotPeriod> {
  const start = periodStart(days, now);
  const first = start.toISOString().slice(0, 10);
  const inPeriod = and(eq(trackingDailyBots.domainId, domainId), gte(trackingDailyBots.day, first));
  const [totals, bots] = await Promise.all([
    db
      .select({
        total: sql<number>`coalesce(sum(${trackingDailyBots.visits}), 0)::int`,
        ai: sql<number>`coalesce(sum(${trackingDailyBots.visits}) filter (where ${trackingDailyBots.isAiBot}), 0)::int`,
        bots: sql<number>`count(distinct ${trackingDailyBots.botName})::int`,
        verified: sql<number>`coalesce(sum(${trackingDailyBots.verifiedVisits}), 0)::int`,
      })
      .from(trackingDailyBots)
      .where(inPeriod),
    db
      .select({
        name: trackingDailyBots.botName,
        purpose: sql<string>`min(${trackingDailyBots.botPurpose})`,
        ai: sql<boolean>`bool_or(${trackingDailyBots.isAiBot})`,
        visits: sql<number>`sum(${trackingDailyBots.visits})::int`,
        verified: sql<number>`sum(${trackingDailyBots.verifiedVisits})::int`,
        spoofed: sql<number>`sum(${trackingDailyBots.spoofedVisits})::int`,
        signature: sql<number>`sum(${trackingDailyBots.signatureVerifiedVisits})::int`,
        ip: sql<number>`sum(${trackingDailyBots.ipVerifiedVisits})::int`,
        rdns: sql<number>`sum(${trackingDailyBots.rdnsVerifiedVisits})::int`,
      })
      .from(trackingDailyBots)
      .where(inPeriod)
      .groupBy(trackingDailyBots.botName)
      .orderBy(sql`sum(${trackingDailyBots.visits}) desc`, trackingDailyBots.botName)
      .limit(TOP),
  ]);
  return {
    days,
    totalVisits: Number(totals[0]?.total ?? 0),
    aiBotVisits: Number(totals[0]?.ai ?? 0),
    uniqueBots: Number(totals[0]?.bots ?? 0),
    verifiedVisits: Number(totals[0]?.verified ?? 0),
    topBots: bots.map((b) => ({
      name: b.name,
      purpose: b.purpose,
      isAIBot: Boolean(b.ai),
      visits: Number(b.visits),
      verified: Number(b.verified),
      spoofed: Number(b.spoofed),
      unverified: Number(b.visits) - Number(b.verified) - Number(b.spoofed),
      verifiedBy: { signature: Number(b.signature), ip: Number(b.ip), rdns: Number(b.rdns) },
    })),
  };
}
