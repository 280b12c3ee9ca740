import { readPrivateTargetPolicy } from "@/lib/fetch";
import { fetchKeyDirectory, type KeyDirectory } from "@/lib/providers/agent-keys/directory";
import { isPublicIp, parseIp } from "../catalog/ip-ranges/cidr";

/** Where a signature's keys come from: a key set's URL, or a Signature Agent Card's (which names the key set). */
export interface KeySource {
  url: string;
  card: boolean;
}

/** Where a prepared signature check's keys come from. */
export const keySourceOf = (check: { directory: string; card: boolean }): KeySource => ({
  url: check.directory,
  card: check.card,
});

/** One name per key source: a URL read as a card is not the same source as the URL read as a key set. */
export const keySourceName = (source: KeySource): string => (source.card ? `card ${source.url}` : source.url);

/**
 * Key sets named by signed requests, parsed (KeyObjects), by key source; failures remembered so a dead one is not
 * hammered.
 */
class KeyDirectoryCache {
  private readonly entries = new Map<string, KeyDirectory>();
  private readonly failedUntil = new Map<string, number>();
  private readonly loading = new Map<string, Promise<KeyDirectory | null>>();

  constructor(
    private readonly capacity = 1000,
    readonly failureBackoffMs = 30_000,
  ) {}

  fetcher: (source: KeySource) => Promise<KeyDirectory> = (source) =>
    fetchKeyDirectory(source.url, { card: source.card });
  now: () => number = Date.now;

  /** The cached directory, fresh or stale; a stale one is refreshed in the background. Never fetches inline. */
  peek(source: KeySource): KeyDirectory | undefined {
    const entry = this.entries.get(keySourceName(source));
    if (entry === undefined || entry.freshUntil <= this.now()) void this.load(source);
    return entry;
  }

  /**
   * The directory: the cached copy while fresh, else fetched (once, however many ask while the fetch runs) unless
   * it failed moments ago; null when it cannot be had. `force` fetches it again regardless.
   */
  load(source: KeySource, options: { force?: boolean } = {}): Promise<KeyDirectory | null> {
    const url = keySourceName(source);
    const running = this.loading.get(url);
    if (running) return running;
    const cached = this.entries.get(url);
    if (!options.force && cached !== undefined && cached.freshUntil > this.now())
      return Promise.resolve(cached);
    if (!options.force && (this.failedUntil.get(url) ?? 0) > this.now()) {
      return Promise.resolve(this.entries.get(url) ?? null);
    }
    const task = this.fetcher(source)
      .then((directory) => {
        this.entries.delete(url);
        this.entries.set(url, directory);
        this.failedUntil.delete(url);
        if (this.entries.size > this.capacity)
          this.entries.delete(this.entries.keys().next().value as string);
        return directory;
      })
      .catch((error: unknown) => {
        this.failedUntil.set(url, this.now() + this.failureBackoffMs);
        console.warn(`signature key directory unavailable: ${(error as Error)?.message ?? error}`);
        // A stale copy still serves until the directory answers again.
        return this.entries.get(url) ?? null;
      })
      .finally(() => this.loading.delete(url));
    this.loading.set(url, task);
    return task;
  }

  /** The cached copy, fresh or stale, without fetching. */
  cached(source: KeySource): KeyDirectory | undefined {
    return this.entries.get(keySourceName(source));
  }

  clear(): void {
    this.entries.clear();
    this.failedUntil.clear();
  }

  async idle(): Promise<void> {
    while (this.loading.size > 0) await Promise.all([...this.loading.values()]);
  }
}

export const agentKeyDirectories = new KeyDirectoryCache();

/** Plain http is accepted for a directory only where private targets are allowed, and only on a private address. */
export function allowHttpDirectory(url: URL): boolean {
  if (readPrivateTargetPolicy() === false) return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const ip = parseIp(host);
  return host === "localhost" || (ip !== null && !isPublicIp(ip));
}
