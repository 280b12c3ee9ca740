import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { MAX_AGE_MS } from "../ingest/event-schema";

/**
 * The visits table's months (migration 0034): one partition per UTC month, visits_YYYY_MM, and visits_default for a
 * visit whose month has none yet. The runner creates the months ahead and drops the months past the raw-visit
 * retention; the daily rollups, page counts and citations are other tables and stay.
 */

/** Months created after the current one, so a month's partition exists well before its first visit. */
const MONTHS_AHEAD = 2;
/** TRACKING_RAW_RETENTION_MONTHS when unset. */
const DEFAULT_RAW_RETENTION_MONTHS = 13;
/**
 * A partition's creation and a month's drop lock the table's parent briefly (the drop against every read and write
 * for a moment); when a long read holds it, they give up after this long rather than hold the queue of ingest and
 * reads behind them, and the next maintenance pass tries again.
 */
const LOCK_TIMEOUT = "5s";

/**
 * TRACKING_RAW_RETENTION_MONTHS: how many months of raw visits to keep (whole UTC months: a month is dropped once
 * all of it is older than that), 13 when unset. Anything but a whole number of at least 1 is refused.
 */
export function rawRetentionMonths(env: Record<string, string | undefined> = process.env): number {
  const raw = env.TRACKING_RAW_RETENTION_MONTHS?.trim();
  if (raw === undefined || raw === "") return DEFAULT_RAW_RETENTION_MONTHS;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new Error(
      `TRACKING_RAW_RETENTION_MONTHS must be a whole number of months, at least 1 (got "${raw}")`,
    );
  }
  return n;
}

/** The first instant of the UTC month `offset` months after the one holding `at`. */
function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** A month's partition name: visits_2026_11. */
export function partitionName(month: Date): string {
  return `visits_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
}

/**
 * The start of the oldest month kept: a month whose whole range is older than `retentionMonths` months before now
 * goes (with 13 months, on any day of November, October of the year before is the oldest month kept).
 */
function oldestKeptMonth(now: Date, retentionMonths: number): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - retentionMonths);
  return monthStart(cutoff);
}

/**
 * The months that must have a partition: from the month of the oldest event accepted (no older than the oldest
 * month kept) through MONTHS_AHEAD months after the current one.
 */
export function monthsToKeepReady(now: Date, retentionMonths: number): Date[] {
  // The oldest visit ingest accepts (an event's or a log line's): the months it can fall in have a partition.
  const oldestAccepted = monthStart(new Date(now.getTime() - MAX_AGE_MS));
  const kept = oldestKeptMonth(now, retentionMonths);
  const months: Date[] = [];
  const last = monthStart(now, MONTHS_AHEAD).getTime();
  for (let m = new Date(Math.max(oldestAccepted.getTime(), kept.getTime())); m.getTime() <= last; ) {
    months.push(m);
    m = monthStart(m, 1);
  }
  return months;
}

/**
 * Creates the months that must have a partition and do not (monthsToKeepReady): one catalog read when all exist,
 * as on almost every pass. Safe to run in several processes at once (visits_ensure_partition serialises them and
 * creates each month once). Returns the partitions it created.
 */
export async function ensureVisitPartitions(
  db: DbOrTx,
  now: Date,
  retentionMonths: number,
): Promise<string[]> {
  const months = monthsToKeepReady(now, retentionMonths);
  const names = months.map(partitionName);
  const existing = new Set(
    rowsOf<{ relname: string }>(
      await db.execute(sql`
        select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'visits'::regclass and c.relname = any(${`{${names.join(",")}}`}::text[])`),
    ).map((r) => r.relname),
  );
  const created: string[] = [];
  for (const month of months) {
    if (existing.has(partitionName(month))) continue;
    const made = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
      const [row] = rowsOf<{ created: boolean }>(
        await tx.execute(
          sql`select visits_ensure_partition(${month.toISOString().slice(0, 10)}::date) as created`,
        ),
      );
      return row?.created === true;
    });
    if (made) created.push(partitionName(month));
  }
  return created;
}

/**
 * The raw-visit retention: drops each month's partition whose whole month is past `retentionMonths` (a drop, not a
 * delete: no dead rows, no vacuum), and deletes the visits of those months still waiting in the default partition
 * (none unless the runner was stopped for months). Returns the partitions dropped.
 */
export async function dropExpiredVisitPartitions(
  db: DbOrTx,
  now: Date,
  retentionMonths: number,
): Promise<string[]> {
  const oldest = oldestKeptMonth(now, retentionMonths);
  const expired = rowsOf<{ relname: string }>(
    await db.execute(sql`
      select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'visits'::regclass and c.relname ~ '^visits_[0-9]{4}_[0-9]{2}$'
      order by c.relname`),
  )
    .map((r) => r.relname)
    .filter((name) => name < partitionName(oldest));
  const dropped: string[] = [];
  for (const name of expired) {
    const gone = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
      // The lock visits_ensure_partition takes: one process drops a month, another then finds it gone.
      await tx.execute(sql`lock table visits in share update exclusive mode`);
      const [still] = rowsOf<{ exists: boolean }>(
        await tx.execute(sql`select to_regclass(${name}) is not null as exists`),
      );
      if (!still?.exists) return false;
      await tx.execute(sql.raw(`drop table "${name}"`));
      return true;
    });
    if (gone) dropped.push(name);
  }
  await db.execute(sql`delete from visits_default where occurred_at < ${oldest.toISOString()}::timestamptz`);
  return dropped;
}

export interface PartitionReport {
  created: string[];
  dropped: string[];
}

/** The runner's step: the months ahead, then the retention. */
export async function maintainVisitPartitions(
  db: DbOrTx,
  now: Date = new Date(),
  retentionMonths: number = rawRetentionMonths(),
): Promise<PartitionReport> {
  const created = await ensureVisitPartitions(db, now, retentionMonths);
  const dropped = await dropExpiredVisitPartitions(db, now, retentionMonths);
  return { created, dropped };
}
