import { LruCache } from "../lru-cache";

/** The spec lets /tracking/stats and /citations be about 2 minutes stale. */
const READ_CACHE_TTL_SECONDS = 120;
export const READ_CACHE_HEADERS = { "cache-control": `private, max-age=${READ_CACHE_TTL_SECONDS}` };
const CAPACITY = 5_000;

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * A per-process cache of stats and citations answers (DESIGN: fine where the spec allows staleness). Bounded
 * (least recently used out first) and keyed by account, domain row and parameters, so one account never sees
 * another's answer and a domain deleted and added again starts empty. The clock is injectable for tests.
 */
export class ReadCache {
  #entries = new LruCache<string, Entry>(CAPACITY);
  #now: () => number = Date.now;

  setClock(now: () => number): void {
    this.#now = now;
  }

  now(): number {
    return this.#now();
  }

  clear(): void {
    this.#entries.clear();
  }

  async getOrLoad<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit && hit.expiresAt > this.#now()) return hit.value as T;
    const value = await load();
    this.#entries.set(key, { value, expiresAt: this.#now() + READ_CACHE_TTL_SECONDS * 1000 });
    return value;
  }
}

const state = globalThis as unknown as { __trackingReadCache?: ReadCache };
/** One per process (Next may load this module in several bundles). */
state.__trackingReadCache ??= new ReadCache();
export const trackingReadCache: ReadCache = state.__trackingReadCache;

/** "YYYY-MM-DD" of the UTC day `daysBack` days before the day of `now`. */
export function utcDay(now: number, daysBack = 0): string {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - daysBack))
    .toISOString()
    .slice(0, 10);
}
