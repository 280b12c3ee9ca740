import { and, eq, gte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { trackingDailyBots, trackingDailyPages } from "@/lib/db/schema";
import { periodStart } from "./bot-period";

const TOP = 10;

/**
 * How many of a period's newest bot visits the bot × page breakdowns read. No rollup keeps visits per bot and
 * page, so those breakdowns read the visits themselves through the (domain, occurred_at) index, newest first;
 * the cap keeps that read bounded whatever the domain's traffic. When the period holds more, the breakdown says
 * which part of the period it covers.
 */
const BREAKDOWN_SCAN = 30_000;

export interface PeriodPage {
  page: string;
  aiCrawls: number;
  verifiedAiCrawls: number;
}

/**
 * The period's most crawled pages (query string dropped) by AI crawlers (AI bots that are not user-triggered
 * fetches), from the daily page rollup: a range of its primary key (domain, day, page).
 */
export async function getPeriodTopPages(
  db: DbOrTx,
  domainId: string,
  days: number,
  now = new Date(),
): Promise<PeriodPage[]> {
  const first = periodStart(days, now).toISOString().slice(0, 10);
  const rows = await db
    .select({
      page: trackingDailyPages.page,
      crawls: sql<number>`sum(${trackingDailyPages.aiCrawls})::int`,
      verified: sql<number>`sum(${trackingDailyPages.verifiedAiCrawls})::int`,
    })
    .from(trackingDailyPages)
    .where(and(eq(trackingDailyPages.domainId, domainId), gte(trackingDailyPages.day, first)))
    .groupBy(trackingDailyPages.page)
    .orderBy(sql`sum(${trackingDailyPages.aiCrawls}) desc`, trackingDailyPages.page)
    .limit(TOP);
  return rows.map((r) => ({
    page: r.page,
    aiCrawls: Number(r.crawls),
    verifiedAiCrawls: Number(r.verified),
  }));
}

export interface DaySeries {
  /** Every UTC day of the period, oldest first, with its count. */
  days: { day: string; value: number }[];
  total: number;
}

function fillDays(days: number, now: Date, cells: Map<string, number>): DaySeries {
  const start = periodStart(days, now);
  const out: { day: string; value: number }[] = [];
  let total = 0;
  for (let i = 0; i < days; i++) {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const value = cells.get(day) ?? 0;
    total += value;
    out.push({ day, value });
  }
  return { days: out, total };
}

export interface BotDetail {
  name: string;
  purpose: string | null;
  isAIBot: boolean;
  visits: number;
  verified: number;
  spoofed: number;
  verifiedBy: { signature: number; ip: number; rdns: number };
  series: DaySeries;
}

/** One bot's visits per UTC day over the period and its verification, from the bots' daily rollup. */
export async function getBotDetail(
  db: DbOrTx,
  domainId: string,
  bot: string,
  days: number,
  now = new Date(),
): Promise<BotDetail> {
  const first = periodStart(days, now).toISOString().slice(0, 10);
  const rows = await db
    .select({
      day: trackingDailyBots.day,
      purpose: trackingDailyBots.botPurpose,
      ai: trackingDailyBots.isAiBot,
      visits: trackingDailyBots.visits,
      verified: trackingDailyBots.verifiedVisits,
      spoofed: trackingDailyBots.spoofedVisits,
      signature: trackingDailyBots.signatureVerifiedVisits,
      ip: trackingDailyBots.ipVerifiedVisits,
      rdns: trackingDailyBots.rdnsVerifiedVisits,
    })
    .from(trackingDailyBots)
    .where(
      and(
        eq(trackingDailyBots.domainId, domainId),
        gte(trackingDailyBots.day, first),
        eq(trackingDailyBots.botName, bot),
      ),
    );
  const cells = new Map<string, number>();
  const detail: BotDetail = {
    name: bot,
    purpose: null,
    isAIBot: false,
    visits: 0,
    verified: 0,
    spoofed: 0,
    verifiedBy: { signature: 0, ip: 0, rdns: 0 },
    series: { days: [], total: 0 },
  };
  for (const r of rows) {
    cells.set(r.day, Number(r.visits));
    detail.purpose ??= r.purpose;
    detail.isAIBot ||= r.ai;
    detail.visits += Number(r.visits);
    detail.verified += Number(r.verified);
    detail.spoofed += Number(r.spoofed);
    detail.verifiedBy.signature += Number(r.signature);
    detail.verifiedBy.ip += Number(r.ip);
    detail.verifiedBy.rdns += Number(r.rdns);
  }
  detail.series = fillDays(days, now, cells);
  return detail;
}

/** One page's AI crawls per UTC day over the period, from the daily page rollup. */
export async function getPageCrawlSeries(
  db: DbOrTx,
  domainId: string,
  page: string,
  days: number,
  now = new Date(),
): Promise<DaySeries & { verified: number }> {
  const first = periodStart(days, now).toISOString().slice(0, 10);
  const rows = await db
    .select({
      day: trackingDailyPages.day,
      crawls: trackingDailyPages.aiCrawls,
      verified: trackingDailyPages.verifiedAiCrawls,
    })
    .from(trackingDailyPages)
    .where(
      and(
        eq(trackingDailyPages.domainId, domainId),
        gte(trackingDailyPages.day, first),
        eq(trackingDailyPages.page, page),
      ),
    );
  const cells = new Map<string, number>();
  let verified = 0;
  for (const r of rows) {
    cells.set(r.day, Number(r.crawls));
    verified += Number(r.verified);
  }
  return { ...fillDays(days, now, cells), verified };
}

export interface Breakdown {
  /** The keys (pages of a bot, or bots of a page) with their visits, most first, at most ten. */
  rows: { key: string; visits: number; isAIBot: boolean }[];
  /** Bot visits read: the period's, or its newest BREAKDOWN_SCAN when it holds more. */
  scanned: number;
  /** Whether every bot visit of the period was read. */
  complete: boolean;
  /** The oldest visit read when the read stopped at the cap: the breakdown covers from then on. */
  coversFrom: Date | null;
}

async function breakdown(
  db: DbOrTx,
  domainId: string,
  days: number,
  now: Date,
  filter: { bot: string } | { page: string },
  cap: number,
): Promise<Breakdown> {
  const start = periodStart(days, now);
  const byBot = "bot" in filter;
  const match = byBot ? sql`bot_name = ${filter.bot}` : sql`split_part(path, '?', 1) = ${filter.page}`;
  const key = byBot ? sql`split_part(path, '?', 1)` : sql`bot_name`;
  // The newest bot visits of the period, read backward through each month's primary key (domain_id, occurred_at,
  // event_key) and stopped at the cap; then grouped. Citations (a person's visit) are not bot visits.
  const result = await db.execute(sql`
    with recent as (
      select path, bot_name, is_ai_bot, occurred_at
      from visits
      where domain_id = ${domainId} and occurred_at >= ${start.toISOString()}::timestamptz
        and bot_name is not null
      order by occurred_at desc, event_key desc
      limit ${cap}
    ),
    summary as (select count(*)::int as scanned, min(occurred_at) as oldest from recent),
    grouped as (
      select ${key} as key, count(*)::int as visits, bool_or(is_ai_bot) as ai
      from recent where ${match}
      group by 1 order by 2 desc, 1 limit ${TOP}
    )
    select g.key, g.visits, g.ai, s.scanned, s.oldest::text as oldest
    from summary s left join grouped g on true
    order by g.visits desc nulls last, g.key
  `);
  const rows = rowsOf<{
    key: string | null;
    visits: number;
    ai: boolean;
    scanned: number;
    oldest: string | null;
  }>(result);
  const scanned = Number(rows[0]?.scanned ?? 0);
  const complete = scanned < cap;
  return {
    rows: rows
      .filter((r) => r.key !== null)
      .map((r) => ({ key: r.key as string, visits: Number(r.visits), isAIBot: Boolean(r.ai) })),
    scanned,
    complete,
    coversFrom: complete || !rows[0]?.oldest ? null : new Date(rows[0].oldest),
  };
}

/** The pages a bot visited in the period (query string dropped), most visits first. */
export function getBotPages(
  db: DbOrTx,
  domainId: string,
  bot: string,
  days: number,
  now = new Date(),
  cap = BREAKDOWN_SCAN,
) {
  return breakdown(db, domainId, days, now, { bot }, cap);
}

/** The bots that visited a page (query string dropped) in the period, most visits first. */
export function getPageBots(
  db: DbOrTx,
  domainId: string,
  page: string,
  days: number,
  now = new Date(),
  cap = BREAKDOWN_SCAN,
) {
  return breakdown(db, domainId, days, now, { page }, cap);
}
