import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { ENGINE_NAMES, type EngineName, type Env } from "@/lib/providers/engine-types";

/** The variables giving each provider's limits: requests per minute and requests in flight. */
const PROVIDER_LIMIT_ENV: Record<EngineName, { rpmEnv: string; concurrencyEnv: string }> = {
  ChatGPT: { rpmEnv: "OPENAI_RPM", concurrencyEnv: "OPENAI_CONCURRENCY" },
  Claude: { rpmEnv: "ANTHROPIC_RPM", concurrencyEnv: "ANTHROPIC_CONCURRENCY" },
  Gemini: { rpmEnv: "GEMINI_RPM", concurrencyEnv: "GEMINI_CONCURRENCY" },
  Perplexity: { rpmEnv: "PERPLEXITY_RPM", concurrencyEnv: "PERPLEXITY_CONCURRENCY" },
};

/**
 * The provider's own limits when the operator sets none: requests per minute and requests in flight of a
 * new account's first paid tier with web search (set `<PROVIDER>_RPM` / `<PROVIDER>_CONCURRENCY` to yours).
 */
const DEFAULT_PROVIDER_LIMITS: Record<EngineName, { rpm: number; concurrency: number }> = {
  ChatGPT: { rpm: 500, concurrency: 20 },
  Claude: { rpm: 50, concurrency: 5 },
  Gemini: { rpm: 300, concurrency: 20 },
  Perplexity: { rpm: 50, concurrency: 5 },
};

/** The share of each provider's limits monitors may use (percent); the rest is kept for the one-off tools. */
const DEFAULT_MONITOR_SHARE = 80;

export interface ProviderLimit {
  /** The provider's limits as configured. */
  providerRpm: number;
  providerConcurrency: number;
  /** What monitors may use of them: `share` percent, at least 1. */
  rpm: number;
  concurrency: number;
}

function positive(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Each provider's limits and the monitors' share of them, from the environment. */
export function readProviderLimits(env: Env = process.env): Record<EngineName, ProviderLimit> {
  const share = Math.min(100, positive(env.MONITOR_PROVIDER_SHARE, DEFAULT_MONITOR_SHARE)) / 100;
  return Object.fromEntries(
    ENGINE_NAMES.map((engine) => {
      const names = PROVIDER_LIMIT_ENV[engine];
      const providerRpm = Math.floor(positive(env[names.rpmEnv], DEFAULT_PROVIDER_LIMITS[engine].rpm));
      const providerConcurrency = Math.floor(
        positive(env[names.concurrencyEnv], DEFAULT_PROVIDER_LIMITS[engine].concurrency),
      );
      return [
        engine,
        {
          providerRpm,
          providerConcurrency,
          rpm: Math.max(1, Math.floor(providerRpm * share)),
          concurrency: Math.max(1, Math.floor(providerConcurrency * share)),
        },
      ];
    }),
  ) as Record<EngineName, ProviderLimit>;
}

/** Spacing between two requests to a provider at `rpm`, with 2% headroom for clocks and network jitter. */
export const slotSpacingMs = (rpm: number) => (60_000 / rpm) * 1.02;

export interface ProviderClock {
  /** The database's clock (clock_timestamp()), the one clock every process shares, when the clock was read. */
  now: Date;
  /** This process's Date.now() just before and just after that read: `now` happened between them. */
  localFrom: number;
  localTo: number;
  /** The first free request slot. */
  start: Date;
  /** Set while the provider asked us to wait (Retry-After). */
  blockedUntil: Date | null;
}

/**
 * Locks the provider's row of provider_budgets for the rest of the transaction (claims of one provider queue on
 * it, whichever process makes them) and reads its clock. Call first in the claiming transaction.
 */
export async function lockProviderClock(tx: Tx, engine: EngineName): Promise<ProviderClock> {
  await tx.execute(sql`insert into provider_budgets (engine) values (${engine}) on conflict do nothing`);
  await tx.execute(sql`select 1 from provider_budgets where engine = ${engine} for update`);
  // Read once the lock is held, with the statement's own clock (now() is the transaction's start, which may be
  // long before the lock was granted): slots then never start in the past of a queued claim.
  const localFrom = Date.now();
  const [row] = rowsOf<{ now: Date | string; start: Date | string; blocked_until: Date | string | null }>(
    await tx.execute(sql`
      select c.now, greatest(next_slot_at, c.now) as start, blocked_until
      from provider_budgets, (select clock_timestamp() as now) c where engine = ${engine}`),
  );
  const localTo = Date.now();
  return {
    now: new Date(row!.now),
    localFrom,
    localTo,
    start: new Date(row!.start),
    blockedUntil: row!.blocked_until ? new Date(row!.blocked_until) : null,
  };
}

/**
 * Gives out `count` request slots from `clock.start`, `slotSpacingMs(rpm)` apart, and moves the provider's
 * next free slot past them: at most `rpm` requests start in any minute, across every process.
 */
export async function takeSlots(
  tx: Tx,
  engine: EngineName,
  clock: ProviderClock,
  count: number,
  rpm: number,
) {
  const spacing = slotSpacingMs(rpm);
  const slots = Array.from({ length: count }, (_, i) => new Date(clock.start.getTime() + i * spacing));
  const next = new Date(clock.start.getTime() + count * spacing);
  await tx.execute(sql`update provider_budgets set next_slot_at = ${next.toISOString()}::timestamptz
    where engine = ${engine}`);
  return slots;
}

/** A provider answered 429 with Retry-After: no process starts a request to it before then. */
export async function blockProvider(db: DbOrTx, engine: EngineName, waitMs: number): Promise<void> {
  const seconds = Math.max(0, waitMs) / 1000;
  await db.execute(sql`
    insert into provider_budgets (engine, blocked_until) values (${engine}, now() + make_interval(secs => ${seconds}))
    on conflict (engine) do update set blocked_until =
      greatest(coalesce(provider_budgets.blocked_until, now()), excluded.blocked_until)`);
}
