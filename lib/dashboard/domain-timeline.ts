import { and, eq, gte, sql } from "drizzle-orm";
import { getVisibility } from "@/lib/ai-visibility/report";
import { dayWindow } from "@/lib/connections/dates";
import { getSearchConsoleQueries } from "@/lib/connections/search-console";
import { type Env, findConnection } from "@/lib/connections/store";
import { getTraffic } from "@/lib/connections/traffic";
import type { DbOrTx } from "@/lib/db/client";
import { trackingDailyBots, trackingDailyCitations } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";

/** One UTC day of every source the overview joins; null where a source has nothing to say. */
export interface TimelineDay {
  day: string;
  searchClicks: number | null;
  searchImpressions: number | null;
  visits: number | null;
  aiReferredVisits: number | null;
  aiBotVisits: number;
  citations: number;
  /** Share of AI-engine answers citing the domain that day (0..1), null without checks. */
  citationRate: number | null;
}

export interface DomainTimeline {
  domain: string;
  days: TimelineDay[];
  /** Per connected source, why it is missing from the series (not connected, reconnect, …). */
  notes: { source: "search" | "analytics"; message: string }[];
}

/** A source's failure as a note on the panel (its message is written for the customer); anything else rethrows. */
async function orNote<T>(
  notes: DomainTimeline["notes"],
  source: "search" | "analytics",
  run: () => Promise<T>,
): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError) {
      notes.push({ source, message: err.message });
      return null;
    }
    throw err;
  }
}

/**
 * Search clicks, analytics visits (AI-referred apart), AI bot visits, citations and AI visibility of one
 * registered domain on one daily axis. Search and analytics are asked only when connected (a revoked
 * connection answers from the database at once, so the overview never loops on a dead grant).
 */
export async function getDomainTimeline(
  db: DbOrTx,
  env: Env,
  accountId: string,
  domain: { id: string; hostname: string },
  days = 30,
  now = new Date(),
): Promise<DomainTimeline> {
  const { startDate, endDate } = dayWindow(days, now);
  const notes: DomainTimeline["notes"] = [];
  const [google, plausible] = await Promise.all([
    findConnection(db, accountId, "google"),
    findConnection(db, accountId, "plausible"),
  ]);
  const [search, traffic, bots, cites, visibility] = await Promise.all([
    google
      ? orNote(notes, "search", () =>
          getSearchConsoleQueries(
            db,
            env,
            accountId,
            { domain: domain.hostname, days, dimensions: ["date"] },
            now,
          ),
        )
      : null,
    google?.settings.ga4Properties?.[domain.hostname] || plausible
      ? orNote(notes, "analytics", () =>
          getTraffic(db, env, accountId, { domain: domain.hostname, days }, { now }),
        )
      : null,
    db
      .select({ day: trackingDailyBots.day, visits: sql<number>`sum(${trackingDailyBots.visits})::int` })
      .from(trackingDailyBots)
      .where(
        and(
          eq(trackingDailyBots.domainId, domain.id),
          eq(trackingDailyBots.isAiBot, true),
          gte(trackingDailyBots.day, startDate),
        ),
      )
      .groupBy(trackingDailyBots.day),
    db
      .select({
        day: trackingDailyCitations.day,
        n: sql<number>`sum(${trackingDailyCitations.citations})::int`,
      })
      .from(trackingDailyCitations)
      .where(and(eq(trackingDailyCitations.domainId, domain.id), gte(trackingDailyCitations.day, startDate)))
      .groupBy(trackingDailyCitations.day),
    getVisibility(db, accountId, { domain: domain.hostname, days }),
  ]);
  const clicks = new Map(search?.rows.map((r) => [r.keys.date ?? "", r]) ?? []);
  const visits = new Map(traffic?.daily.map((d) => [d.date, d]) ?? []);
  const botVisits = new Map(bots.map((b) => [String(b.day), Number(b.visits)]));
  const citations = new Map(cites.map((c) => [String(c.day), Number(c.n)]));
  const rates = new Map(visibility.overall.series.map((p) => [p.day, p.citationRate]));
  const out: TimelineDay[] = [];
  for (
    let d = new Date(`${startDate}T00:00:00Z`);
    d.toISOString().slice(0, 10) <= endDate;
    d.setUTCDate(d.getUTCDate() + 1)
  ) {
    const day = d.toISOString().slice(0, 10);
    out.push({
      day,
      searchClicks: search ? (clicks.get(day)?.clicks ?? 0) : null,
      searchImpressions: search ? (clicks.get(day)?.impressions ?? 0) : null,
      visits: traffic ? (visits.get(day)?.visits ?? 0) : null,
      aiReferredVisits: traffic ? (visits.get(day)?.aiVisits ?? 0) : null,
      aiBotVisits: botVisits.get(day) ?? 0,
      citations: citations.get(day) ?? 0,
      citationRate: rates.get(day) ?? null,
    });
  }
  // The sources are asked at once, so their failures arrive in any order: the panel lists them in a fixed one.
  notes.sort((a, b) => NOTE_ORDER.indexOf(a.source) - NOTE_ORDER.indexOf(b.source));
  return { domain: domain.hostname, days: out, notes };
}

const NOTE_ORDER: DomainTimeline["notes"][number]["source"][] = ["search", "analytics"];
