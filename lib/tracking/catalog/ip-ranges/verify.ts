import { getBotDefinition } from "../bots";
import { BUNDLED_RANGE_FEEDS } from "./bundled-feeds";
import { IpRangeSet, isPublicIp, parseIp } from "./cidr";
import { parseRangeFeed } from "./feed";
import { RANGE_SOURCE_KEYS, type RangeSourceKey } from "./sources";

/**
 * - `verified`: the address is in a range the bot's operator publishes.
 * - `unverified`: the operator publishes ranges and the address is in none of them (likely an impostor).
 * - `unknown`: we cannot judge: no address, not a public address (a proxy hid the client), the operator
 *   publishes no ranges, or we hold none of them yet (none of the address's family, IPv4 or IPv6).
 */
export type IpVerification = "verified" | "unverified" | "unknown";

export interface IpVerifier {
  verifyBotIp(botName: string, ip: string | null | undefined): IpVerification;
  /** Sources with at least one usable prefix loaded. */
  loadedSources(): RangeSourceKey[];
}

/** Builds a verifier over operator feeds (the operators' JSON format), keyed by source. */
export function createIpVerifier(feeds: Partial<Record<RangeSourceKey, unknown>>): IpVerifier {
  const sets = new Map<RangeSourceKey, IpRangeSet>();
  for (const key of RANGE_SOURCE_KEYS) {
    const feed = feeds[key];
    if (feed === undefined) continue;
    const set = new IpRangeSet(parseRangeFeed(feed).prefixes);
    if (!set.isEmpty) sets.set(key, set);
  }

  // Each known bot's range sets, gathered on its first visit (the definitions and the sets never change). Only
  // names spelt as their definition are kept (what classification gives), so the map stays as small as the table.
  const rangesByBot = new Map<string, IpRangeSet[]>();
  const rangesOf = (botName: string): IpRangeSet[] | null => {
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
      if (ranges.some((set) => set.contains(address))) return "verified";
      // Lists that hold no range of the address's family (an IPv6-only copy, for an IPv4 address) cannot
      // disprove it.
      return ranges.some((set) => set.covers(address.version)) ? "unverified" : "unknown";
    },
  };
}

let bundled: IpVerifier | null = null;

/** Checks a bot's claimed identity against its operator's published ranges (the committed data files). */
export function verifyBotIp(botName: string, ip: string | null | undefined): IpVerification {
  bundled ??= createIpVerifier(BUNDLED_RANGE_FEEDS);
  return bundled.verifyBotIp(botName, ip);
}
