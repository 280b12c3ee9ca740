import { BUNDLED_RANGE_FEEDS } from "@/lib/tracking/catalog/ip-ranges/bundled-feeds";
import type { RangeSourceKey } from "@/lib/tracking/catalog/ip-ranges/sources";

/**
 * The committed files' lists as if each were its operator's whole list, as a refresh stores them (no `seed`
 * mark): an address outside them disproves a claim. For tests of what a spoofed visit does.
 */
export function committedListsAsWhole(): Record<RangeSourceKey, unknown> {
  return Object.fromEntries(
    Object.entries(BUNDLED_RANGE_FEEDS).map(([key, feed]) => {
      const { seed: _seed, ...whole } = feed as Record<string, unknown>;
      return [key, whole];
    }),
  ) as Record<RangeSourceKey, unknown>;
}
