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
 *
 * Calls on the same bucket while its statement is in flight wait and then go as ONE statement carrying
 * their summed weight (on the process's pool; a transaction's calls run as they come). Each caller gets
 * the count it would have seen had the calls run one after another in arrival order, so the limit, the
 * remaining count and `firstInWindow` are exactly those of separate statements, while a busy key takes
 * one row lock per round trip instead of one per request.
 */
export function hitRateLimit(
  db: DbOrTx,
  bucket: string,
  limit: number,
  windowSeconds = WINDOW_SECONDS,
  weight = 1,
): Promise<RateLimitState> {
  if (typeof (db as { rollback?: unknown }).rollback === "function") {
    return upsertWindow(db, bucket, windowSeconds, weight).then((row) => stateOf(row, limit, weight));
  }
  let lanes = lanesByDb.get(db);
  if (!lanes) {
    lanes = new Map();
    lanesByDb.set(db, lanes);
  }
  const laneKey = `${windowSeconds}\u0000${bucket}`;
  let lane = lanes.get(laneKey);
  if (!lane) {
    lane = { waiting: [], busy: false };
    lanes.set(laneKey, lane);
  }
  const current = lane;
  return new Promise<RateLimitState>((resolve, reject) => {
    current.waiting.push({ weight, limit, resolve, reject });
    if (!current.busy) void drain(db, lanes, laneKey, current, bucket, windowSeconds);
  });
}

interface WaitingHit {
  weight: number;
  limit: number;
  resolve: (state: RateLimitState) => void;
  reject: (err: unknown) => void;
}
interface Lane {
  waiting: WaitingHit[];
  busy: boolean;
}
const lanesByDb = new WeakMap<object, Map<string, Lane>>();

/** Sends the lane's waiting hits as one upsert, again while more arrived meanwhile, then frees the lane. */
async function drain(
  db: DbOrTx,
  lanes: Map<string, Lane>,
  laneKey: string,
  lane: Lane,
  bucket: string,
  windowSeconds: number,
): Promise<void> {
  lane.busy = true;
  while (lane.waiting.length > 0) {
    const hits = lane.waiting.splice(0);
    const total = hits.reduce((sum, h) => sum + h.weight, 0);
    try {
      const row = await upsertWindow(db, bucket, windowSeconds, total);
      // The statement added `total`: the first caller's share ends at count - total + its weight.
      let before = Number(row.count) - total;
      for (const h of hits) {
        before += h.weight;
        h.resolve(stateOf({ count: before, reset: row.reset }, h.limit, h.weight));
      }
    } catch (err) {
      for (const h of hits) h.reject(err);
    }
  }
  lane.busy = false;
  lanes.delete(laneKey);
}

async function upsertWindow(
  db: DbOrTx,
  bucket: string,
  windowSeconds: number,
  weight: number,
): Promise<{ count: number; reset: number }> {
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
  return row;
}

function stateOf(row: { count: number; reset: number }, limit: number, weight: number): RateLimitState {
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
