import { sql } from "drizzle-orm";
import type { DbOrTx } from "./client";
import { rowsOf } from "./rows";

/**
 * Drops rate-limit windows that ended long ago (every window lasts at most an hour); client addresses
 * would otherwise accumulate. The job runner's periodic pass calls it.
 */
export async function purgeRateLimitWindows(db: DbOrTx): Promise<number> {
  const rows = await db.execute(
    sql`delete from rate_limit_windows where window_start < now() - interval '1 hour' returning bucket`,
  );
  return rowsOf(rows).length;
}
