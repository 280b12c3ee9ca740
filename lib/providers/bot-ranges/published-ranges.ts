// The IP ranges crawler operators publish (Google, Bing, OpenAI, Anthropic, Perplexity, Apple, DuckDuckGo, Common
// Crawl, Mistral, Amazon): one JSON document per list, `{ creationTime, prefixes: [{ ipv4Prefix } | { ipv6Prefix }] }`,
// served as a file, or (Amazon) inside a web page. Fetched through the guarded fetcher.
import { FetchError, guardedFetch } from "@/lib/fetch";
import type { GuardedFetch } from "@/lib/fetch/types";
import type { Env } from "../env";

export interface BotRangesConfig {
  /**
   * BOT_RANGES_BASE_URL: an origin that stands in for every operator's (scheme, host and port replaced, the path
   * kept): a mirror of the lists, or a test's local server. Null: the operators' own addresses.
   */
  baseUrl: string | null;
}

export function readBotRangesConfig(env: Env): BotRangesConfig {
  const raw = env.BOT_RANGES_BASE_URL?.trim();
  if (!raw) return { baseUrl: null };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`BOT_RANGES_BASE_URL is not a URL: ${raw}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`BOT_RANGES_BASE_URL must be an http(s) URL: ${raw}`);
  }
  return { baseUrl: url.origin };
}

/** Where a list is fetched from: its operator's address, or the same path under the configured origin. */
export function publishedRangesUrl(url: string, config: BotRangesConfig): string {
  if (!config.baseUrl) return url;
  const original = new URL(url);
  return `${config.baseUrl}${original.pathname}${original.search}`;
}

/** A list that could not be fetched or read; the message says why, for the operator. */
export class PublishedRangesError extends Error {
  override name = "PublishedRangesError";
}

// The largest list (Google's user-triggered fetchers) is well under 200 KB.
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * The range document a web page embeds: the JSON object that starts with `{"creationTime"`, up to its
 * matching brace (strings are skipped, so braces inside them do not count). Throws when there is none.
 */
function extractEmbeddedDocument(page: string): string {
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

/**
 * Fetches one published list and returns its JSON document as the operator wrote it (the caller reads the
 * prefixes). `embedded: "html"`: the address is a web page holding the document. Throws PublishedRangesError.
 */
export async function fetchPublishedRanges(
  url: string,
  options: {
    embedded?: "html";
    fetch?: GuardedFetch;
    timeoutMs?: number;
    maxBytes?: number;
  } = {},
): Promise<unknown> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let text: string;
  try {
    const response = await (options.fetch ?? guardedFetch)(url, {
      headers: { accept: options.embedded === "html" ? "text/html" : "application/json" },
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes,
    });
    if (response.status < 200 || response.status > 299)
      throw new PublishedRangesError(`HTTP ${response.status}`);
    text = response.text();
  } catch (err) {
    if (err instanceof PublishedRangesError) throw err;
    if (err instanceof FetchError && err.code === "RESPONSE_TOO_LARGE") {
      throw new PublishedRangesError(`response exceeds the ${maxBytes}-byte cap`);
    }
    throw new PublishedRangesError(err instanceof Error ? err.message : String(err));
  }
  try {
    return JSON.parse(options.embedded === "html" ? extractEmbeddedDocument(text) : text);
  } catch {
    throw new PublishedRangesError(
      options.embedded === "html" ? "page holds no JSON range document" : "response is not JSON",
    );
  }
}
