import { getBotDefinition } from "../bots";
import { BUNDLED_RANGE_FEEDS } from "./bundled-feeds";
import { IpRangeSet, isPublicIp, parseIp } from "./cidr";
import { parseRangeFeed } from "./feed";
import { RANGE_SOURCE_KEYS, type RangeSourceKey } from "./sources";

/**
 * - `verified`: the address is in a range the bot's operator publishes.
 * - `unverified`: the address is in none of the ranges the operator publishes (likely an impostor); said only from
 *   the operator's whole list, never from a seed (part of it).
 * - `unknown`: we cannot judge: no address, not a public address (a proxy hid the client), the operator
 *   publishes no ranges, we hold none of them yet (none of the address's family, IPv4 or IPv6), or we hold only
 *   part of them and the address is not in that part.
 */
export type IpVerification = "verified" | "unverified" | "unknown";

export interface IpVerifier {
  verifyBotIp(botName: string, ip: string | null | undefined): IpVerification;
  /** Sources with at least one usable prefix loaded. */
  loadedSources(): RangeSourceKey[];
}

interface LoadedRanges {
  set: IpRangeSet;
  complete: boolean;
}

/** Builds a verifier over operator feeds (the operators' JSON format), keyed by source. */
export function createIpVerifier(feeds: Partial<Record<RangeSourceKey, unknown>>): IpVerifier {
  const sets = new Map<RangeSourceKey, LoadedRanges>();
  for (const key of RANGE_SOURCE_KEYS) {
    const feed = feeds[key];
    if (feed === undefined) continue;
    const parsed = parseRangeFeed(feed);
    const set = new IpRangeSet(parsed.prefixes);
    if (!set.isEmpty) sets.set(key, { set, complete: parsed.complete });
  }

  // Each known bot's range sets, gathered on its first visit (the definitions and the sets never change). Only
  // names spelt as their definition are kept (what classification gives), so the map stays as small as the table.
  const rangesByBot = new Map<string, LoadedRanges[]>();
  const rangesOf = (botName: string): LoadedRanges[] | null => {
    const known = rangesByBot.get(botName);
    if (known !== undefined) return known;
    const definition = getBotDefinition(botName);
    if (!definition) return null;
    const ranges = definition.ipRanges.flatMap((key) => sets.get(key) ?? []);
    if (definition.name === botName) rangesByBot.set(botName, ranges);
    return ranges;
  };

  return {
    loadedSources: () => [...sets.keys()],
    verifyBotIp(botName, ip) {
      if (!ip) return "unknown";
      const ranges = rangesOf(botName);
      if (ranges === null || ranges.length === 0) return "unknown";
      const address = parseIp(ip);
      if (!address || !isPublicIp(address)) return "unknown";
      if (ranges.some((r) => r.set.contains(address))) return "verified";
      // Lists that hold no range of the address's family (an IPv6-only copy, for an IPv4 address) cannot
      // disprove it, nor can a partial copy of a list: the address may be in the part it lacks.
      const covering = ranges.filter((r) => r.set.covers(address.version));
      return covering.length > 0 && covering.every((r) => r.complete) ? "unverified" : "unknown";
    },
  };
}

/** The operators' lists fetched at run time (lib/tracking/catalog/ip-ranges/stored-feeds), by source. */
let fetched: Partial<Record<RangeSourceKey, unknown>> = {};
let current: IpVerifier | null = null;

/**
 * Replaces the committed files' lists with these, source by source (the sources not named keep the committed
 * file's). Called with the lists the service fetched from the operators; later calls replace earlier ones.
 */
export function installRangeFeeds(feeds: Partial<Record<RangeSourceKey, unknown>>): void {
  fetched = { ...feeds };
  current = null;
}

/**
 * Checks a bot's claimed identity against its operator's published ranges: the lists fetched at run time where
 * there are some, the committed data files for the rest.
 */
export function verifyBotIp(botName: string, ip: string | null | undefined): IpVerification {
  current ??= createIpVerifier({ ...BUNDLED_RANGE_FEEDS, ...fetched });
  return current.verifyBotIp(botName, ip);
}
