import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { GuardedFetch } from "@/lib/fetch/types";
import {
  type BotRangesConfig,
  fetchPublishedRanges,
  publishedRangesUrl,
} from "@/lib/providers/bot-ranges/published-ranges";
import { formatRangeFeed, parseRangeFeed } from "./feed";
import { RANGE_SOURCES, type RangeSource, type RangeSourceKey } from "./sources";

export interface FetchOptions {
  sources?: readonly RangeSource[];
  fetch?: GuardedFetch;
  /** Where the lists are fetched from (BOT_RANGES_BASE_URL); the operators' own addresses by default. */
  config?: BotRangesConfig;
  timeoutMs?: number;
  maxBytes?: number;
  now?: () => Date;
}

export interface RefreshOptions extends FetchOptions {
  dataDir: string;
}

export type RefreshOutcome =
  | { key: RangeSourceKey; ok: true; prefixes: number; rejected: string[]; creationTime: string | null }
  | { key: RangeSourceKey; ok: false; error: string };

/** A list as fetched: on success, the document to keep (the operators' format, with where and when it came from). */
export type FetchedFeed =
  | (Extract<RefreshOutcome, { ok: true }> & { feed: Record<string, unknown>; fetchedAt: Date })
  | Extract<RefreshOutcome, { ok: false }>;

async function fetchOne(source: RangeSource, options: FetchOptions): Promise<FetchedFeed> {
  try {
    const json = await fetchPublishedRanges(
      publishedRangesUrl(source.url, options.config ?? { baseUrl: null }),
      {
        embedded: source.embedded,
        fetch: options.fetch,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
      },
    );
    const feed = parseRangeFeed(json);
    // An empty list would turn every real visit into "unknown"; keep the previous one instead.
    if (feed.prefixes.length === 0) throw new Error("feed holds no usable prefix");
    const fetchedAt = options.now?.() ?? new Date();
    return {
      key: source.key,
      ok: true,
      prefixes: feed.prefixes.length,
      rejected: feed.rejected,
      creationTime: feed.creationTime,
      fetchedAt,
      feed: formatRangeFeed(feed.prefixes, {
        creationTime: feed.creationTime,
        source: source.url,
        fetchedAt: fetchedAt.toISOString(),
      }),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { key: source.key, ok: false, error: message };
  }
}

/** What a fetch tells its caller: the outcome without the document kept. */
export function outcomeOf(fetched: FetchedFeed): RefreshOutcome {
  if (!fetched.ok) return fetched;
  const { feed: _feed, fetchedAt: _at, ...outcome } = fetched;
  return outcome;
}

/** Downloads each operator's published list (all sources at once); a failure is an outcome, never a throw. */
export function fetchRangeFeeds(options: FetchOptions = {}): Promise<FetchedFeed[]> {
  const sources = options.sources ?? RANGE_SOURCES;
  return Promise.all(sources.map((source) => fetchOne(source, options)));
}

/** Downloads each operator's published list and rewrites its data file; a failed source keeps its old file. */
export async function refreshRangeFiles(options: RefreshOptions): Promise<RefreshOutcome[]> {
  const fetched = await fetchRangeFeeds(options);
  return Promise.all(
    fetched.map(async (outcome): Promise<RefreshOutcome> => {
      if (!outcome.ok) return outcome;
      const file = path.join(options.dataDir, `${outcome.key}.json`);
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(outcome.feed, null, 2)}\n`);
      await rename(temporary, file); // atomic: readers never see half a file
      return outcomeOf(outcome);
    }),
  );
}
