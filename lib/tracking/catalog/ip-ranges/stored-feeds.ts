// The operators' IP range lists kept current at run time: a runner fetches each list once a day into
// bot_ip_range_feeds, and every process that verifies bots loads what is stored there over the committed seed files.
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { redactDbError } from "@/lib/db/errors";
import { rowsOf } from "@/lib/db/rows";
import { parseRangeFeed } from "./feed";
import { type FetchOptions, fetchRangeFeeds, outcomeOf, type RefreshOutcome } from "./refresh";
import { RANGE_SOURCES, type RangeSourceKey } from "./sources";
import { installRangeFeeds } from "./verify";

/** A list is fetched again once its last attempt is this old (operators change their lists every few days). */
export const RANGE_REFRESH_MS = 24 * 60 * 60 * 1000;
/** How often a process looks for lists another process stored. */
const RELOAD_CHECK_MS = 5 * 60 * 1000;

/**
 * TRACKING_RANGES_REFRESH: "on" or "off"; unset means on in production (NODE_ENV=production) and off elsewhere, so
 * development machines and tests reach no operator unless asked to.
 */
export function rangeRefreshEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const mode = env.TRACKING_RANGES_REFRESH;
  if (mode === "on") return true;
  if (mode === "off") return false;
  return env.NODE_ENV === "production";
}

/**
 * Fetches the lists that are due (never fetched, or last tried more than a day before `now`) and stores each that
 * arrives; a failed list keeps what was stored before, with the reason. The due lists are claimed first (their
 * attempt time set in one statement), so runners sharing the database never fetch a list together. Returns the
 * outcome of each list this call fetched.
 */
export async function refreshStoredRangeFeeds(
  db: DbOrTx,
  options: FetchOptions = {},
): Promise<RefreshOutcome[]> {
  const now = options.now?.() ?? new Date();
  const sources = options.sources ?? RANGE_SOURCES;
  const keys = sources.map((s) => s.key);
  const dueBefore = new Date(now.getTime() - RANGE_REFRESH_MS);
  const claimed = rowsOf<{ source: string }>(
    await db.execute(sql`
      with wanted as (select unnest(${`{${keys.join(",")}}`}::text[]) as source),
      added as (
        insert into bot_ip_range_feeds (source, attempted_at)
        select source, ${now.toISOString()}::timestamptz from wanted
        on conflict (source) do nothing
        returning source
      ),
      due as (
        update bot_ip_range_feeds set attempted_at = ${now.toISOString()}::timestamptz
        where source in (select source from wanted) and attempted_at <= ${dueBefore.toISOString()}::timestamptz
        returning source
      )
      select source from added union select source from due`),
  );
  const mine = new Set(claimed.map((r) => r.source));
  if (mine.size === 0) return [];
  const fetched = await fetchRangeFeeds({ ...options, sources: sources.filter((s) => mine.has(s.key)) });
  const rows = fetched.map((f) =>
    f.ok
      ? { source: f.key, feed: f.feed, fetchedAt: f.fetchedAt.toISOString() }
      : { source: f.key, error: f.error.slice(0, 500) },
  );
  await db.execute(sql`
    with input as (
      select x->>'source' as source, x->'feed' as feed, (x->>'fetchedAt')::timestamptz as fetched_at,
             x->>'error' as error
      from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as x
    )
    update bot_ip_range_feeds t
    set feed = coalesce(i.feed, t.feed), fetched_at = coalesce(i.fetched_at, t.fetched_at), last_error = i.error
    from input i where t.source = i.source`);
  // This process sees what it stored on its next check, at once.
  reloadAt = 0;
  return fetched.map(outcomeOf);
}

let reloadAt = 0;
let loadedVersion = "";
let loading: Promise<void> | null = null;

/**
 * Makes this process verify against the lists stored in the database, looking for new ones at most every five
 * minutes (ingest calls it for every batch: between checks it returns at once, with nothing to wait for). A
 * database that cannot be read leaves the lists in use as they are.
 */
export function loadStoredRangeFeeds(db: DbOrTx, now = Date.now()): Promise<void> | undefined {
  if (now < reloadAt) return undefined;
  if (loading) return loading;
  reloadAt = now + RELOAD_CHECK_MS;
  loading = readStored(db)
    .catch((err) => {
      console.error("stored IP range lists not read", redactDbError(err));
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

async function readStored(db: DbOrTx): Promise<void> {
  const rows = rowsOf<{ source: string; feed: unknown; fetched_at: string | Date }>(
    await db.execute(sql`
      select source, feed, fetched_at from bot_ip_range_feeds where feed is not null order by source`),
  );
  const version = rows.map((r) => `${r.source}@${new Date(r.fetched_at).toISOString()}`).join(",");
  // Nothing stored and nothing loaded before: the committed files stay in use (and what a test put in place).
  if (version === loadedVersion) return;
  const known = new Set<string>(RANGE_SOURCES.map((s) => s.key));
  const feeds: Partial<Record<RangeSourceKey, unknown>> = {};
  for (const row of rows) {
    if (!known.has(row.source)) continue;
    let feed: unknown;
    try {
      feed = parseJson(row.feed);
      parseRangeFeed(feed);
    } catch {
      continue; // not a list (written by hand?): the committed file's copy stays in use
    }
    feeds[row.source as RangeSourceKey] = feed;
  }
  installRangeFeeds(feeds);
  loadedVersion = version;
}

/** jsonb comes back parsed from postgres.js and as text from some drivers. */
function parseJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}
