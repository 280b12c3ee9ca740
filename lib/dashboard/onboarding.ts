// The overview's first-week checklist and tracking figures, read from what the account already has: its
// domains, whether any visit arrived, verification, the ledger's audit charges, and the daily rollups.
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { creditLedger, domains, trackingDailyBots, trackingDailyCitations, visits } from "@/lib/db/schema";

export interface TrackingFigures {
  days: number;
  aiBotVisits: number;
  citations: number;
  /** AI-bot visits and citations of the last 7 days against the 7 before, in per cent; null without a base. */
  aiBotTrend: number | null;
  citationTrend: number | null;
  /** One row per UTC day, oldest first. */
  series: { day: string; aiBotVisits: number; citations: number }[];
}

export interface Onboarding {
  domains: { hostname: string; verified: boolean }[];
  /** A first visit (bot or citation) has been recorded for one of the domains. */
  firstEventReceived: boolean;
  verified: boolean;
  /** A URL audit or SEO/AEO/GEO audit was launched (the ledger keeps its charge after the job expires). */
  auditRun: boolean;
  done: boolean;
  tracking: TrackingFigures | null;
}

const AUDIT_TOOLS = ["audits", "seo-aeo-geo-audit"];
const TREND_DAYS = 30;

function dayString(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function trend(series: number[]): number | null {
  const recent = series.slice(-7).reduce((s, v) => s + v, 0);
  const before = series.slice(-14, -7).reduce((s, v) => s + v, 0);
  if (before === 0) return null;
  return Math.round(((recent - before) / before) * 100);
}

export async function getOnboarding(db: DbOrTx, accountId: string, now = new Date()): Promise<Onboarding> {
  const rows = await db
    .select({ id: domains.id, hostname: domains.hostname, verifiedAt: domains.verifiedAt })
    .from(domains)
    .where(eq(domains.accountId, accountId))
    .orderBy(asc(domains.hostname));
  const ids = rows.map((r) => r.id);
  const [event, audit] = await Promise.all([
    ids.length
      ? db.select({ one: sql<number>`1` }).from(visits).where(inArray(visits.domainId, ids)).limit(1)
      : Promise.resolve([]),
    db
      .select({ one: sql<number>`1` })
      .from(creditLedger)
      .where(
        and(
          eq(creditLedger.accountId, accountId),
          eq(creditLedger.type, "spend"),
          sql`(${sql.join(
            AUDIT_TOOLS.map((t) => sql`${creditLedger.description} like ${`${t} job %`}`),
            sql` or `,
          )})`,
        ),
      )
      .limit(1),
  ]);
  const firstEventReceived = event.length > 0;
  const verified = rows.some((r) => r.verifiedAt);
  const auditRun = audit.length > 0;
  return {
    domains: rows.map((r) => ({ hostname: r.hostname, verified: Boolean(r.verifiedAt) })),
    firstEventReceived,
    verified,
    auditRun,
    done: rows.length > 0 && firstEventReceived && verified && auditRun,
    tracking: firstEventReceived ? await readTracking(db, ids, now) : null,
  };
}

async function readTracking(db: DbOrTx, ids: string[], now: Date): Promise<TrackingFigures> {
  const start = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (TREND_DAYS - 1)),
  );
  const first = dayString(start);
  const [bots, cites] = await Promise.all([
    db
      .select({ day: trackingDailyBots.day, n: sql<number>`sum(${trackingDailyBots.visits})::int` })
      .from(trackingDailyBots)
      .where(
        and(
          inArray(trackingDailyBots.domainId, ids),
          gte(trackingDailyBots.day, first),
          eq(trackingDailyBots.isAiBot, true),
        ),
      )
      .groupBy(trackingDailyBots.day),
    db
      .select({
        day: trackingDailyCitations.day,
        n: sql<number>`sum(${trackingDailyCitations.citations})::int`,
      })
      .from(trackingDailyCitations)
      .where(and(inArray(trackingDailyCitations.domainId, ids), gte(trackingDailyCitations.day, first)))
      .groupBy(trackingDailyCitations.day),
  ]);
  const botByDay = new Map(bots.map((r) => [r.day, Number(r.n)]));
  const citeByDay = new Map(cites.map((r) => [r.day, Number(r.n)]));
  const series = Array.from({ length: TREND_DAYS }, (_, i) => {
    const day = dayString(new Date(start.getTime() + i * 86_400_000));
    return { day, aiBotVisits: botByDay.get(day) ?? 0, citations: citeByDay.get(day) ?? 0 };
  });
  return {
    days: TREND_DAYS,
    aiBotVisits: series.reduce((s, d) => s + d.aiBotVisits, 0),
    citations: series.reduce((s, d) => s + d.citations, 0),
    aiBotTrend: trend(series.map((d) => d.aiBotVisits)),
    citationTrend: trend(series.map((d) => d.citations)),
    series,
  };
}
