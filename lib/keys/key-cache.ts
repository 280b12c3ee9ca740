// The per-process cache of API key rows, so an authenticated request costs no key lookup in the database.
//
// - An entry is served as is for KEY_CACHE_FRESH_MS, then (up to API_KEY_CACHE_SECONDS, default 10 s) served
//   while it is read again in the background; older than that it is read before answering.
// - Revocation reaches every process within seconds: a trigger on api_keys bumps the one-row counter
//   api_key_epoch and sends NOTIFY api_keys_changed in the revoking transaction (drizzle/0007). On Postgres each
//   process LISTENs and empties its cache on a notification; every process also reads the counter every
//   KEY_EPOCH_CHECK_MS (1 s) and empties its cache when it moved, so a lost notification (a dropped listening
//   connection) or PGlite (no LISTEN across processes) still costs at most a second or two.
// - A read that started before a change is never stored after it (the cache's generation is checked), so a
//   stale row cannot outlive the change that should have removed it.
// - Unknown key ids are not cached (a new key works at once; a flood of made-up ids cannot fill the cache).
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { apiKeys } from "@/lib/db/schema";

export interface KeyRow {
  id: string;
  accountId: string;
  secretHash: string;
  rateLimitPerMinute: number | null;
  revokedAt: Date | null;
  /** A rolled pair's end: refused from then on, whatever the cache's age. */
  expiresAt: Date | null;
}

interface Entry {
  row: KeyRow;
  at: number;
  refreshing: boolean;
}

function settings() {
  const seconds = Number(process.env.API_KEY_CACHE_SECONDS ?? 10);
  const maxAgeMs = Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 10) * 1000 : 10_000;
  return { maxAgeMs, freshMs: Math.min(1000, maxAgeMs) };
}

const MAX_ENTRIES = 10_000;
const EPOCH_CHECK_MS = 1000;
/** The version check stops after this long without a lookup, and starts again with the next one. */
const IDLE_STOP_MS = 60_000;
const KEY_CHANNEL = "api_keys_changed";

type PgClient = {
  listen?: (
    channel: string,
    onNotify: (payload: string) => void,
    onListen?: () => void,
  ) => Promise<{ unlisten: () => Promise<void> }>;
};

class KeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Moves on every emptying, so a read that began before one is not stored after it. */
  private generation = 0;
  private epoch: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastUse = 0;
  private listening: Promise<unknown> | null = null;

  constructor(private readonly db: Db) {}

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  async lookup(keyId: string): Promise<KeyRow | null> {
    const { maxAgeMs, freshMs } = settings();
    if (maxAgeMs === 0) return readKey(this.db, keyId);
    const now = Date.now();
    this.lastUse = now;
    this.watch();
    const hit = this.entries.get(keyId);
    if (hit && now - hit.at < maxAgeMs) {
      if (now - hit.at >= freshMs && !hit.refreshing) {
        hit.refreshing = true;
        void this.load(keyId).catch(() => {
          hit.refreshing = false;
        });
      }
      return hit.row;
    }
    return this.load(keyId);
  }

  private async load(keyId: string): Promise<KeyRow | null> {
    const generation = this.generation;
    const row = await readKey(this.db, keyId);
    if (generation !== this.generation) return row;
    if (!row) {
      this.entries.delete(keyId);
      return null;
    }
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(keyId)) {
      // Oldest first: Map keeps insertion order.
      const first = this.entries.keys().next().value;
      if (first !== undefined) this.entries.delete(first);
    }
    this.entries.delete(keyId);
    this.entries.set(keyId, { row, at: Date.now(), refreshing: false });
    return row;
  }

  /** Starts the version check (and LISTEN on Postgres) while the cache is in use. */
  private watch(): void {
    if (this.timer) return;
    const tick = async () => {
      if (Date.now() - this.lastUse > IDLE_STOP_MS) {
        this.timer = null;
        this.clear();
        return;
      }
      await this.checkEpoch();
      this.timer = setTimeout(() => void tick(), EPOCH_CHECK_MS).unref();
    };
    this.timer = setTimeout(() => void tick(), EPOCH_CHECK_MS).unref();
    void this.checkEpoch();
    this.listen();
  }

  private async checkEpoch(): Promise<void> {
    try {
      const rows = rowsOf<{ version: number | string }>(
        await this.db.execute(sql`select version from api_key_epoch where id = 1`),
      );
      const version = Number(rows[0]?.version ?? 0);
      if (this.epoch !== null && version !== this.epoch) this.clear();
      this.epoch = version;
    } catch {
      // The database is unreachable: serve nothing from memory that could have been revoked meanwhile.
      this.clear();
      this.epoch = null;
    }
  }

  private listen(): void {
    if (this.listening || process.env.KEY_CACHE_LISTEN === "off") return;
    const client = (this.db as unknown as { $client?: PgClient }).$client;
    // postgres.js: a dedicated connection that re-listens after reconnecting. PGlite: the version check only.
    if (!client?.listen || !("unsafe" in client)) return;
    this.listening = client
      .listen(
        KEY_CHANNEL,
        () => this.clear(),
        () => this.clear(),
      )
      .catch(() => {
        this.listening = null;
      });
  }
}

async function readKey(db: Db, keyId: string): Promise<KeyRow | null> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      accountId: apiKeys.accountId,
      secretHash: apiKeys.secretHash,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      revokedAt: apiKeys.revokedAt,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.keyId, keyId))
    .limit(1);
  return row ?? null;
}

// Process-wide: Next may load this module in several bundles, and every copy must share one cache per database.
const state = globalThis as unknown as {
  __keyCaches?: WeakMap<Db, KeyCache>;
  __keyCacheList?: Set<KeyCache>;
};
state.__keyCaches ??= new WeakMap();
state.__keyCacheList ??= new Set();

function cacheFor(db: Db): KeyCache {
  let cache = state.__keyCaches!.get(db);
  if (!cache) {
    cache = new KeyCache(db);
    state.__keyCaches!.set(db, cache);
    state.__keyCacheList!.add(cache);
  }
  return cache;
}

/** The key row for `keyId` (revoked ones included, so the caller refuses them), from this process's cache. */
export function lookupKey(db: Db, keyId: string): Promise<KeyRow | null> {
  return cacheFor(db).lookup(keyId);
}

/** This process changed a key (rotation, a new limit): forget every cached row at once. */
export function keysChanged(): void {
  for (const cache of state.__keyCacheList!) cache.clear();
}
