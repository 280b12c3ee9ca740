import { type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";

export interface DueRow {
  id: string;
  due: Date;
}

/**
 * Claims ONE due row of a schedule table (`next_run_at <= now()` and `where`) with FOR UPDATE SKIP LOCKED and
 * hands it to `handle` inside the same transaction; `handle` must move the row's `next_run_at` (or pause it)
 * before the commit. Another process never sees a locked row, and after the commit the row is no longer due:
 * one slot runs once however many processes claim at the same time. Returns false when nothing was due.
 */
async function claimDueRow(
  db: Db,
  spec: { table: string; where: SQL },
  handle: (tx: Tx, row: DueRow) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = rowsOf<{ id: string; next_run_at: Date | string }>(
      await tx.execute(sql`
        select id, next_run_at from ${sql.identifier(spec.table)}
        where next_run_at <= now() and ${spec.where}
        order by next_run_at
        limit 1
        for update skip locked`),
    );
    const row = rows[0];
    if (!row) return false;
    await handle(tx, { id: row.id, due: new Date(row.next_run_at) });
    return true;
  });
}

/** Claims due rows one transaction at a time until none is due or `max` were handled. */
export async function claimDueRows(
  db: Db,
  spec: { table: string; where: SQL; max: number },
  handle: (tx: Tx, row: DueRow) => Promise<void>,
): Promise<number> {
  let n = 0;
  while (n < spec.max && (await claimDueRow(db, spec, handle))) n++;
  return n;
}
