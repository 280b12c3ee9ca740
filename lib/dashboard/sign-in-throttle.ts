// Password guessing is slowed per (email, client address) and per client address, with delays that grow
// with each failure. Nothing is ever locked for good: the owner who waits, or who signs in from another
// address, gets in with the right password. Counters live in rate_limit_windows (hashed keys), so every
// instance shares them and the runner's purge drops them an hour after the last failure.
import { sql } from "drizzle-orm";
import { bucketKey } from "@/lib/api/rate-limit";
import type { DbOrTx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";

/** Failures an (email, address) pair may make before each further attempt must wait. */
export const PAIR_FREE_FAILURES = 5;
/** Failures one address may make (whatever the emails) before each further attempt must wait. */
export const ADDRESS_FREE_FAILURES = 20;
/** The first wait; each further failure doubles it, up to MAX_WAIT_SECONDS. */
export const FIRST_WAIT_SECONDS = 30;
const MAX_WAIT_SECONDS = 15 * 60;
/** A counter is forgotten this long after its last failure (the purge's horizon is the same hour). */
const FAILURE_MEMORY_SECONDS = 60 * 60;

/** Too many failures: wait `retryAfterSeconds` (no password is checked meanwhile, so no bcrypt work). */
export class SignInThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-ins. Try again in ${formatWait(retryAfterSeconds)}.`);
    this.name = "SignInThrottledError";
  }
}

function formatWait(seconds: number): string {
  return seconds < 90 ? `${Math.max(1, Math.ceil(seconds))} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

/** The wait after `failures` failures, when `free` are allowed without one. */
function waitAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(MAX_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** (failures - free));
}

interface Counter {
  bucket: string;
  free: number;
}

function counters(email: string, ip: string): Counter[] {
  const address = email.trim().toLowerCase();
  return [
    { bucket: bucketKey(`signin-pair:${address}\n${ip}`), free: PAIR_FREE_FAILURES },
    { bucket: bucketKey(`signin-ip:${ip}`), free: ADDRESS_FREE_FAILURES },
  ];
}

/** Throws SignInThrottledError while either counter still asks this attempt to wait. */
export async function assertSignInAllowed(db: DbOrTx, email: string, ip: string): Promise<void> {
  const list = counters(email, ip);
  const rows = rowsOf<{ bucket: string; count: number; age: number }>(
    await db.execute(sql`
      select bucket, count, extract(epoch from (now() - window_start))::float8 as age
      from rate_limit_windows
      where bucket in (${sql.join(
        list.map((c) => sql`${c.bucket}`),
        sql`, `,
      )})`),
  );
  let wait = 0;
  for (const row of rows) {
    const age = Number(row.age);
    if (age >= FAILURE_MEMORY_SECONDS) continue;
    const free = list.find((c) => c.bucket === row.bucket)!.free;
    wait = Math.max(wait, waitAfter(Number(row.count), free) - age);
  }
  if (wait > 0) throw new SignInThrottledError(Math.ceil(wait));
}

/** Counts one failure on both counters; returns the pair's failures so far. */
export async function recordSignInFailure(db: DbOrTx, email: string, ip: string): Promise<number> {
  let pairFailures = 0;
  for (const [i, counter] of counters(email, ip).entries()) {
    const rows = rowsOf<{ count: number }>(
      await db.execute(sql`
        insert into rate_limit_windows as w (bucket, window_start, count)
        values (${counter.bucket}, now(), 1)
        on conflict (bucket) do update set
          count = case when w.window_start <= now() - make_interval(secs => ${FAILURE_MEMORY_SECONDS}) then 1 else w.count + 1 end,
          window_start = now()
        returning count`),
    );
    if (i === 0) pairFailures = Number(rows[0]?.count ?? 1);
  }
  return pairFailures;
}

/** A right password clears its (email, address) counter; the address's own counter runs on. */
export async function clearSignInFailures(db: DbOrTx, email: string, ip: string): Promise<void> {
  const [pair] = counters(email, ip);
  await db.execute(sql`delete from rate_limit_windows where bucket = ${pair!.bucket}`);
}

/** How long a wrong answer is held back: a little more with each failure, so scripted guessing crawls. */
export function failureDelayMs(failures: number): number {
  return Math.min(3000, 250 * failures);
}
