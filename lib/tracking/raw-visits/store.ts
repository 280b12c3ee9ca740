import { and, desc, eq, gte, isNotNull, lt, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { type Visit, visitAgents, visits } from "@/lib/db/schema";
import type { encodeVisitBatch } from "../ingest/encode-visits";
import { type SettledVisit, storeVerdicts } from "../ingest/verdict-statement";
import { type FirstCitation, insertVisits } from "../ingest/visit-statement";
import { maintainVisitPartitions, type PartitionReport } from "./partitions";

export type { SettledVisit };

/**
 * A page of a domain's bot visits, newest first (GET /api/tracking/visits).
 * @public (what another raw-visit store implements)
 */
export interface BotVisitsQuery {
  domainId: string;
  from?: Date;
  to?: Date;
  /** A bot name, compared case-insensitively. */
  bot?: string;
  aiOnly?: boolean;
  /** The last visit of the previous page: its time and event key. */
  after?: { at: Date; key: string };
  limit: number;
}

/** @public (what another raw-visit store implements) */
export interface RawBotVisit {
  key: string;
  at: Date;
  path: string;
  bot: string | null;
  purpose: string | null;
  isAiBot: boolean;
  verification: Visit["verification"];
  verificationMethod: Visit["verificationMethod"];
  status: number | null;
}

/** @public (what another raw-visit store implements) */
export interface RawCitation {
  engine: string | null;
  path: string;
  at: Date;
  verification: Visit["verification"];
  method: Visit["verificationMethod"];
}

/**
 * Where raw visits are written and read: ingest's batches, the verdicts settled after them, the API's lists of a
 * domain's visits and citations, and the housekeeping of what is kept. The rollups (daily bots, page counts,
 * citations, the page funnel) stay in Postgres whatever the store: every report but these lists reads them.
 * docs/operations.md ("Scale") says when a columnar store would take the raw visits, and what it would implement.
 */
export interface RawVisitStore {
  /**
   * Stores a batch's new visits (skipping events already stored when `skipDuplicates`, refusing the batch otherwise)
   * and adds them to the rollups, atomically: in the caller's transaction, or committed on its own when given the
   * database itself; returns how many were new and the first citations they made (citation.detected events).
   */
  insertBatch(
    tx: DbOrTx,
    batch: ReturnType<typeof encodeVisitBatch>,
    /** Each profile's agent id (visit_agents), in the batch's profiles' order. */
    agentIds: readonly number[],
    skipDuplicates: boolean,
  ): Promise<{ inserted: number; firstCitations: FirstCitation[] }>;
  /** Visits still undecided get the verdict reached after they were stored (signature, reverse DNS). */
  settleVerdicts(db: DbOrTx, settled: SettledVisit[], method: "signature" | "rdns"): Promise<void>;
  /** A domain's bot visits, newest first (ties by event key), `limit` of them after `after`. */
  botVisits(db: DbOrTx, q: BotVisitsQuery): Promise<RawBotVisit[]>;
  /** A domain's newest citations since `since`. */
  recentCitations(db: DbOrTx, domainId: string, since: Date, limit: number): Promise<RawCitation[]>;
  /** The runner's housekeeping: what must exist ahead, and the retention. */
  maintain(db: DbOrTx, now: Date, retentionMonths: number): Promise<PartitionReport>;
}

/**
 * The raw visits in Postgres: the visits table partitioned by month (lib/tracking/raw-visits/partitions), written
 * in the same statement as the rollups.
 */
const postgresRawVisits: RawVisitStore = {
  insertBatch: insertVisits,
  settleVerdicts: storeVerdicts,
  botVisits: (db, q) =>
    db
      .select({
        key: visits.eventKey,
        at: visits.occurredAt,
        path: visits.path,
        bot: visits.botName,
        purpose: visitAgents.botPurpose,
        isAiBot: visits.isAiBot,
        verification: visits.verification,
        verificationMethod: visits.verificationMethod,
        status: visits.status,
      })
      .from(visits)
      // The purpose is the visit's agent's: a lookup by its key for each visit of the page.
      .leftJoin(visitAgents, eq(visitAgents.id, visits.agentId))
      .where(
        and(
          eq(visits.domainId, q.domainId),
          isNotNull(visits.botName),
          q.from ? gte(visits.occurredAt, q.from) : undefined,
          q.to ? lt(visits.occurredAt, q.to) : undefined,
          q.bot ? sql`lower(${visits.botName}) = ${q.bot.toLowerCase()}` : undefined,
          q.aiOnly ? eq(visits.isAiBot, true) : undefined,
          // A row comparison: the index's bound, where "earlier, or as early with a smaller key" was a filter.
          q.after
            ? sql`(${visits.occurredAt}, ${visits.eventKey}) < (${q.after.at.toISOString()}::timestamptz, ${q.after.key})`
            : undefined,
          // The same bound on the time alone, which Postgres prunes the months by (a row comparison it does not):
          // the months after the cursor are not scanned.
          q.after ? lte(visits.occurredAt, q.after.at) : undefined,
        ),
      )
      // Each month's primary key (domain_id, occurred_at, event_key) read backward, the months merged in order, no
      // sort (plain "desc": the index is ascending, nulls last; the key's collation is the column's, "C").
      .orderBy(desc(visits.occurredAt), desc(visits.eventKey))
      .limit(q.limit),
  recentCitations: (db, domainId, since, limit) =>
    db
      .select({
        engine: visits.citationEngine,
        path: visits.path,
        at: visits.occurredAt,
        verification: visits.verification,
        method: visits.verificationMethod,
      })
      .from(visits)
      .where(
        and(eq(visits.domainId, domainId), isNotNull(visits.citationEngine), gte(visits.occurredAt, since)),
      )
      // Plain "desc" (nulls first, and the column is not null): each month's visits_citations_idx read backward
      // (the months before the period pruned), the months merged in order, no sort. Citations of one instant come
      // in the index's order.
      .orderBy(desc(visits.occurredAt))
      .limit(limit),
  maintain: maintainVisitPartitions,
};

/** The store the service uses. */
export const rawVisits: RawVisitStore = postgresRawVisits;
