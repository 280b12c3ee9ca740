import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * A visit's verification as stored: "verified"; "unverified", the claim disproved (the API's "spoofed"); "unknown",
 * nothing proves or disproves it yet (the API's "unverified").
 */
export const VISIT_VERIFICATIONS = ["verified", "unverified", "unknown"] as const;
/** The type of visits.verification: 4 bytes in the row, compared with the same string literals as text. */
const visitVerification = pgEnum("visit_verification", VISIT_VERIFICATIONS);
/** What decided a visit's verification: a Web Bot Auth signature, the operator's IP ranges, or reverse DNS. */
export const VERIFICATION_METHODS = ["signature", "ip", "rdns"] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/**
 * Text that sorts and compares byte by byte (collation "C") whatever the database's default collation. For the
 * keys ingest writes and groups by: event keys, paths, bot and engine names. Under a language collation (and under
 * glibc's C.UTF-8, which Postgres does not recognise as C) every comparison in a B-tree descent or a sort copies
 * both strings and calls strcoll; each inserted visit descends its key twice (the ON CONFLICT check, then the
 * insert). Equality is the same under both; the reads that order by these columns already order by "C".
 */
const keyText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * What many visits share and no report filters on: the user agent, the bot's purpose, the citation's reason and the
 * demo flag, each distinct combination stored once and named by `key` (visit_agent_key in migration 0036, computed
 * alike in lib/tracking/ingest/visit-agents). A visit holds its agent's id. Never updated or deleted: ingest caches
 * the ids it has looked up.
 */
export const visitAgents = pgTable("visit_agents", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  key: keyText("key").notNull().unique(),
  userAgent: text("user_agent").notNull(),
  botPurpose: text("bot_purpose"),
  citationReason: text("citation_reason"),
  isDemo: boolean("is_demo").notNull().default(false),
});

/**
 * One recorded visit: a bot's request, or a person's visit that an AI engine referred (a citation). Other human
 * visits are not stored. `eventKey` makes ingest idempotent: a retried batch inserts nothing twice.
 *
 * The table is partitioned by UTC month on `occurredAt` (visits_YYYY_MM, and visits_default for a month with no
 * partition yet), which Drizzle cannot declare: migration 0034 creates the partitioned table (0038 its current
 * columns) and the SQL function visits_ensure_partition that adds a month, and lib/tracking/raw-visits keeps the
 * months (created ahead, dropped past the raw-visit retention). This definition is the parent's columns, keys and
 * indexes, for queries; each partition carries the same indexes under its own name (visits_2026_11_pkey). Every
 * unique key of a partitioned table holds the partition key, hence `occurredAt` in the primary key. That key is a
 * visit's only identity: a visit has no id of its own, which would cost 8 bytes a row and a sequence step per
 * insert. The columns go fixed-width first, widest alignment first, so none pads.
 */
export const visits = pgTable(
  "visits",
  {
    /**
     * The domain: no foreign key, whose check would cost a lookup per inserted visit, a large share of ingest's
     * work. The ingest statement locks each domain of its batch once, as the key's check would, and refuses the
     * batch if one is gone; a trigger on domains deletes a removed domain's visits.
     */
    domainId: uuid("domain_id").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    /** The visit's user agent, bot purpose, citation reason and demo flag (visit_agents): no foreign key, as domain. */
    agentId: integer("agent_id").notNull(),
    verification: visitVerification("verification").notNull(),
    /** An HTTP status, 100 to 599. */
    status: smallint("status"),
    isAiBot: boolean("is_ai_bot").notNull().default(false),
    path: keyText("path").notNull(),
    eventKey: keyText("event_key").notNull(),
    /** Null for a human visit. */
    botName: keyText("bot_name"),
    /** Null while undecided (and for visits decided before methods were recorded). */
    verificationMethod: text("verification_method", { enum: VERIFICATION_METHODS }),
    ip: text("ip"),
    referrer: text("referrer"),
    citationEngine: keyText("citation_engine"),
  },
  (t) => [
    // A visit's identity: a retried or replayed event is the same key (ON CONFLICT DO NOTHING); it carries its time,
    // so the time is part of its identity at no loss. Time before the key: each domain's visits insert in time
    // order whatever their keys (a client's ids are in no order), and the key is the domain's time index:
    // GET /api/tracking/visits (newest first, keyset pages on occurred_at, event_key) and the dashboard's
    // breakdowns read it backward, with no index of their own. Ascending on purpose: visits arrive in time order,
    // and Postgres packs a leaf page that receives its group's newest entries when it splits (about 90% full); in
    // descending order every new entry lands at the front of its group and each split leaves two half-full pages.
    primaryKey({ name: "visits_pkey", columns: [t.domainId, t.occurredAt, t.eventKey] }),
    // GET /citations: the newest citations of a domain (scanned backward as well; citations of one instant in the
    // index's own order).
    index("visits_citations_idx").on(t.domainId, t.occurredAt).where(sql`${t.citationEngine} is not null`),
    check("visits_verification_method_valid", sql`${t.verificationMethod} in ('signature', 'ip', 'rdns')`),
    check("visits_bot_or_citation", sql`${t.botName} is not null or ${t.citationEngine} is not null`),
  ],
);

/** Bot visits per domain, UTC day and bot; kept in the ingest transaction. Serves totals, unique bots, topBots. */
export const trackingDailyBots = pgTable(
  "tracking_daily_bots",
  {
    /** No foreign key, as visits' domain: the ingest statement holds the domain, a trigger removes its rows. */
    domainId: uuid("domain_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    botName: keyText("bot_name").notNull(),
    botPurpose: text("bot_purpose").notNull(),
    isAiBot: boolean("is_ai_bot").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
    /** Of `visits`: from an address the operator publishes (or its reverse DNS confirms). */
    verifiedVisits: bigint("verified_visits", { mode: "number" }).notNull().default(0),
    /** Of `visits`: claiming a bot whose operator publishes its addresses, from an address outside them. */
    spoofedVisits: bigint("spoofed_visits", { mode: "number" }).notNull().default(0),
    /** Of `verifiedVisits`, by the method that verified them (older visits were counted before methods were). */
    signatureVerifiedVisits: bigint("signature_verified_visits", { mode: "number" }).notNull().default(0),
    ipVerifiedVisits: bigint("ip_verified_visits", { mode: "number" }).notNull().default(0),
    rdnsVerifiedVisits: bigint("rdns_verified_visits", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.domainId, t.day, t.botName] }),
    check("tracking_daily_bots_visits_positive", sql`${t.visits} > 0`),
  ],
);

/**
 * Bot visits per domain and path (query string dropped); serves topPages. Like every rollup, its pages keep half
 * their room free (fillfactor 50, migration 0037), so a count's update stays on its row's page and writes no index
 * entry (a HOT update), even when a batch updates every row of a page.
 */
export const trackingPageCounts = pgTable(
  "tracking_page_counts",
  {
    /** No foreign key, as visits' domain: the ingest statement holds the domain, a trigger removes its rows. */
    domainId: uuid("domain_id").notNull(),
    path: keyText("path").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
    /**
     * The count's rank, its power of four (floor(log4 visits)), monotonic in the count. Indexed instead of the
     * count, so an update leaves every indexed column as it was but when the count reaches the next power.
     */
    visitsRank: smallint("visits_rank").generatedAlwaysAs(
      sql`floor(ln("visits"::float8) / ln(4::float8))::smallint`,
    ),
  },
  (t) => [
    primaryKey({ columns: [t.domainId, t.path] }),
    // topPages of GET /tracking/stats: the ranks from the top down to the tenth page's hold every page that counts
    // as many visits as the tenth or more; those alone are ordered by their counts (then by path). In plain "desc"
    // order, the order the read walks it in.
    index("tracking_page_counts_top_idx").on(t.domainId, t.visitsRank.desc().nullsFirst()),
    check("tracking_page_counts_visits_positive", sql`${t.visits} > 0`),
  ],
);

/** Citations per domain, UTC day and engine; serves total and byBot of GET /citations. */
export const trackingDailyCitations = pgTable(
  "tracking_daily_citations",
  {
    /** No foreign key, as visits' domain: the ingest statement holds the domain, a trigger removes its rows. */
    domainId: uuid("domain_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    engine: keyText("engine").notNull(),
    citations: bigint("citations", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.domainId, t.day, t.engine] }),
    check("tracking_daily_citations_positive", sql`${t.citations} > 0`),
  ],
);

/**
 * The pages each AI engine cited, per domain and UTC day (query string dropped): ingest inserts a batch's
 * citations here set-wise, and a row that is new is the first citation of that page by that engine that day
 * (a citation.detected event). Kept in the ingest transaction, like the rollups.
 */
export const trackingCitedPages = pgTable(
  "tracking_cited_pages",
  {
    /** No foreign key, as visits' domain: the ingest statement holds the domain, a trigger removes its rows. */
    domainId: uuid("domain_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    engine: keyText("engine").notNull(),
    page: keyText("page").notNull(),
    /**
     * The earliest of the visits that cited the page first that day: the citation.detected event's time, which the
     * ingest statement reads back from the row it inserts (returning) instead of joining the batch's visits to the
     * new rows. Null for rows stored before the column existed.
     */
    firstCitedAt: timestamp("first_cited_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.domainId, t.day, t.engine, t.page] })],
);

export type Visit = typeof visits.$inferSelect;
/**
 * A visit as ingest prepares it: its row's fields and its agent's (visit_agents), before the agent is looked up
 * (lib/tracking/ingest/visit-agents).
 */
export type NewVisit = Omit<typeof visits.$inferInsert, "agentId"> &
  Pick<typeof visitAgents.$inferInsert, "userAgent" | "botPurpose" | "citationReason" | "isDemo">;

/**
 * The IP range lists crawler operators publish, as the service last fetched them (one row per list, the keys of
 * lib/tracking/catalog/ip-ranges/sources): they replace the committed seed files' copies in every process. A failed
 * fetch keeps the list fetched before and records why.
 */
export const botIpRangeFeeds = pgTable("bot_ip_range_feeds", {
  source: text("source").primaryKey(),
  /** The list in the operators' format (`{ creationTime, source, fetchedAt, prefixes }`); null until one arrives. */
  feed: jsonb("feed"),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }),
  /** When a fetch of this list last started (the claim that keeps two runners from fetching it together). */
  attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull(),
  /** Why the last fetch failed; null after a success. */
  lastError: text("last_error"),
});
