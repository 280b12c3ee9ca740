import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { formatRangeFeed, parseRangeFeed } from "./feed";
import { RANGE_SOURCES, type RangeSource, type RangeSourceKey } from "./sources";

export interface RefreshOptions {
  dataDir: string;
  sources?: readonly RangeSource[];
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxBytes?: number;
  now?: () => Date;
}

export type RefreshOutcome =
  | { key: RangeSourceKey; ok: true; prefixes: number; rejected: string[]; creationTime: string | null }
  | { key: RangeSourceKey; ok: false; error: string };

const DEFAULT_TIMEOUT_MS = 20_000;
// The largest list (Google's user-triggered fetchers) is well under 200 KB.
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

export async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new Error(`response is ${declared} bytes, over the ${maxBytes}-byte cap`);
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new Error(`response exceeds the ${maxBytes}-byte cap`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The range document a web page embeds: the JSON object that starts with `{"creationTime"`, up to its
 * matching brace (strings are skipped, so braces inside them do not count). Throws when there is none.
 */
function extractEmbeddedFeed(page: string): string {
  const start = page.search(/\{\s*"creationTime"\s*:/);
  if (start === -1) throw new Error("no embedded document");
  let depth = 0;
  let inString = false;
  for (let i = start; i < page.length; i++) {
    const c = page[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return page.slice(start, i + 1);
    }
  }
  throw new Error("unterminated embedded document");
}

async function refreshOne(source: RangeSource, options: RefreshOptions): Promise<RefreshOutcome> {
  const doFetch = options.fetch ?? fetch;
  try {
    const response = await doFetch(source.url, {
      headers: { accept: source.embedded === "html" ? "text/html" : "application/json" },
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      redirect: "follow",
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const text = await readCapped(response, options.maxBytes ?? DEFAULT_MAX_BYTES);
    let json: unknown;
    try {
      json = JSON.parse(source.embedded === "html" ? extractEmbeddedFeed(text) : text);
    } catch {
      throw new Error(
        source.embedded === "html" ? "page holds no JSON range document" : "response is not JSON",
      );
    }
    const feed = parseRangeFeed(json);
    // An empty list would turn every real visit into "unknown"; keep the previous file instead.
    if (feed.prefixes.length === 0) throw new Error("feed holds no usable prefix");

    const fetchedAt = (options.now?.() ?? new Date()).toISOString();
    const body = formatRangeFeed(feed.prefixes, {
      creationTime: feed.creationTime,
      source: source.url,
      fetchedAt,
    });
    const file = path.join(options.dataDir, `${source.key}.json`);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(body, null, 2)}\n`);
    await rename(temporary, file); // atomic: readers never see half a file
    return {
      key: source.key,
      ok: true,
      prefixes: feed.prefixes.length,
      rejected: feed.rejected,
      creationTime: feed.creationTime,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { key: source.key, ok: false, error: message };
  }
}

/** Downloads each operator's published list and rewrites its data file; a failed source keeps its old file. */
export async function refreshRangeFiles(options: RefreshOptions): Promise<RefreshOutcome[]> {
  const sources = options.sources ?? RANGE_SOURCES;
  return Promise.all(sources.map((source) => refreshOne(source, options)));
}
