import { sql } from "drizzle-orm";
import { bigint, check, customType, date, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";

/** Text compared byte by byte (collation "C"), as the other rollups' keys (see tracking.ts). */
const keyText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * AI crawls per domain, UTC day and page (query string dropped): visits of AI bots that are not user-triggered
 * fetches. Kept in the ingest transaction; the verified count is settled later for visits verified by reverse DNS.
 * Serves the crawl columns of GET /tracking/pages.
 */
export const trackingDailyPages = pgTable(
  "tracking_daily_pages",
  {
    /** No foreign key, as visits' domain: the ingest statement holds the domain, a trigger removes its rows. */
    domainId: uuid("domain_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    page: keyText("page").notNull(),
    aiCrawls: bigint("ai_crawls", { mode: "number" }).notNull(),
    verifiedAiCrawls: bigint("verified_ai_crawls", { mode: "number" }).notNull().default(0),
    firstCrawlAt: timestamp("first_crawl_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.domainId, t.day, t.page] }),
    check(
      "tracking_daily_pages_crawls_positive",
      sql`${t.aiCrawls} > 0 AND ${t.verifiedAiCrawls} BETWEEN 0 AND ${t.aiCrawls}`,
    ),
  ],
);

/**
 * Citations per domain, UTC day, page, engine and assistant (the user-triggered fetcher's name; empty for a
 * person the engine referred). Kept in the ingest transaction. Serves the citation columns of GET /tracking/pages.
 */
export const trackingDailyPageCitations = pgTable(
  "tracking_daily_page_citations",
  {
    /** No foreign key, as visits' domain: the ingest statement holds the domain, a trigger removes its rows. */
    domainId: uuid("domain_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    page: keyText("page").notNull(),
    engine: keyText("engine").notNull(),
    assistant: keyText("assistant").notNull(),
    citations: bigint("citations", { mode: "number" }).notNull(),
    firstCitedAt: timestamp("first_cited_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({
      name: "tracking_daily_page_citations_pk",
      columns: [t.domainId, t.day, t.page, t.engine, t.assistant],
    }),
    check("tracking_daily_page_citations_positive", sql`${t.citations} > 0`),
  ],
);
