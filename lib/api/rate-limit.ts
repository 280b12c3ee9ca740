import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";

export const DEFAULT_RATE_LIMIT = Number(process.env.RATE_LIMIT_PER_MINUTE ?? 60);
export const WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  allowed: boolean;
  /** True for the first request of a window (used to touch a key's last-used time cheaply). */
  firstInWindow: boolean;
}

/**
 * The stored key for a bucket: its kind (the text before the first colon, ours) and a SHA-256 prefix of
 * the whole, so a client-chosen part (an address, an email) cannot grow the table's keys.
 */
export function bucketKey(bucket: string): string {
  const colon = bucket.indexOf(":");
  const kind = colon > 0 && colon <= 16 ? bucket.slice(0, colon) : "b";
  return `${kind}:${createHash("sha256").update(bucket).digest("base64url").slice(0, 32)}`;
}

/**
 * Counts `weight` requests (one unless a call carries several, like a JSON-RPC batch) against `bucket`
 * in the database, so every instance shares the window. One statement: the window starts at the
 * bucket's first request and restarts after 60 s.
 */
export async function hitRateLimit(
  db: DbOrTx,
  bucket: string,
  limit: number,
  windowSeconds = WINDOW_SECONDS,
  weight = 1,
): Promise<RateLimitState> {
  const rows = await db.execute<{ count: number; reset: number }>(sql`
    insert into rate_limit_windows as w (bucket, window_start, count)
    values (${bucketKey(bucket)}, now(), ${weight}::int)
    on conflict (bucket) do update set
      window_start = case when w.window_start <= now() - make_interval(secs => ${windowSeconds}) then now() else w.window_start end,
      count = case when w.window_start <= now() - make_interval(secs => ${windowSeconds}) then ${weight}::int else w.count + ${weight}::int end
    returning count,
      greatest(0, ceil(extract(epoch from (window_start + make_interval(secs => ${windowSeconds}) - now()))))::int as reset`);
  const row = rowsOf<{ count: number; reset: number }>(rows)[0];
  if (!row) throw new Error("rate limit upsert returned no row");
  const count = Number(row.count);
  return {
    limit,
    remaining: Math.max(0, limit - count),
    reset: Number(row.reset),
    allowed: count <= limit,
    firstInWindow: count === weight,
  };
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.reset),
    "RateLimit-Policy": `${state.limit};w=${WINDOW_SECONDS}`,
  };
  if (!state.allowed) headers["Retry-After"] = String(Math.max(1, state.reset));
  return headers;
}
