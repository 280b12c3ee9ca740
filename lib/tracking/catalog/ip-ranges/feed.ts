import { type ParsedCidr, parseCidr } from "./cidr";

/**
 * The file format operators publish (Google, Bing, OpenAI, Anthropic, Perplexity, Apple, DuckDuckGo, Common
 * Crawl, Mistral) and that our data files keep: `{ creationTime, prefixes: [{ ipv4Prefix } | { ipv6Prefix }] }`.
 */
interface RangeFeed {
  creationTime?: string | null;
  prefixes?: unknown;
  /** True in a partial copy (the committed seed files): an address outside it proves nothing. */
  seed?: unknown;
  [extra: string]: unknown;
}

export interface ParsedFeed {
  creationTime: string | null;
  prefixes: ParsedCidr[];
  /** Entries that were not a usable prefix (malformed, or implausibly broad), as found. */
  rejected: string[];
  /** The whole list as its operator published it (false for a seed: part of it). */
  complete: boolean;
}

// No crawler fleet is this large; a broader entry is a publishing mistake that would "verify" anyone.
const MIN_PREFIX_BITS = { 4: 8, 6: 16 } as const;

const PREFIX_FIELDS = ["ipv4Prefix", "ipv6Prefix", "ip_prefix", "ipv6_prefix", "prefix", "cidr"] as const;

function prefixTexts(entry: unknown): string[] {
  if (typeof entry === "string") return [entry];
  if (!entry || typeof entry !== "object") return [];
  const texts: string[] = [];
  for (const field of PREFIX_FIELDS) {
    const value = (entry as Record<string, unknown>)[field];
    if (typeof value === "string" && value.trim() !== "") texts.push(value);
  }
  return texts;
}

/** Reads an operator's feed. Entries may carry both families; bare addresses count as single hosts. */
export function parseRangeFeed(feed: unknown): ParsedFeed {
  if (!feed || typeof feed !== "object" || Array.isArray(feed)) {
    throw new Error("range feed is not a JSON object");
  }
  const { creationTime, prefixes, seed } = feed as RangeFeed;
  if (!Array.isArray(prefixes)) throw new Error("range feed has no `prefixes` array");

  const seen = new Set<string>();
  const parsed: ParsedCidr[] = [];
  const rejected: string[] = [];
  for (const entry of prefixes) {
    const texts = prefixTexts(entry);
    if (texts.length === 0) rejected.push(JSON.stringify(entry) ?? String(entry));
    for (const text of texts) {
      const cidr = parseCidr(text);
      const bits = cidr ? Number(cidr.cidr.slice(cidr.cidr.indexOf("/") + 1)) : -1;
      if (!cidr || bits < MIN_PREFIX_BITS[cidr.version]) {
        rejected.push(text);
        continue;
      }
      if (seen.has(cidr.cidr)) continue;
      seen.add(cidr.cidr);
      parsed.push(cidr);
    }
  }
  return {
    creationTime: typeof creationTime === "string" ? creationTime : null,
    prefixes: parsed,
    rejected,
    complete: seed !== true,
  };
}

/** Serialises prefixes back into the operators' format, IPv4 first, each family in address order. */
export function formatRangeFeed(
  prefixes: readonly ParsedCidr[],
  meta: Record<string, string | null>,
): Record<string, unknown> {
  const ordered = [...prefixes].sort((a, b) =>
    a.version !== b.version ? a.version - b.version : a.start < b.start ? -1 : a.start > b.start ? 1 : 0,
  );
  return {
    ...meta,
    prefixes: ordered.map((p) => (p.version === 4 ? { ipv4Prefix: p.cidr } : { ipv6Prefix: p.cidr })),
  };
}
