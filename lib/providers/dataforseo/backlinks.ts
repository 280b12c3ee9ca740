import type { ProviderBacklinks } from "@/lib/contract/provider-backlinks";
import { type CallOptions, type DataForSeoConfig, postLiveTask } from "./client";

export type { ProviderBacklinks } from "@/lib/contract/provider-backlinks";

interface SummaryResult {
  rank?: number | null;
  backlinks?: number | null;
  referring_domains?: number | null;
  referring_main_domains?: number | null;
  referring_pages?: number | null;
  referring_links_attributes?: Record<string, number> | null;
}
interface ItemsResult<T> {
  items?: T[] | null;
}
interface AnchorItem {
  anchor?: string | null;
  backlinks?: number | null;
  referring_domains?: number | null;
}
interface DomainItem {
  domain?: string | null;
  rank?: number | null;
  backlinks?: number | null;
}
interface NewLostItem {
  date?: string;
  new_backlinks?: number | null;
  lost_backlinks?: number | null;
  new_referring_domains?: number | null;
  lost_referring_domains?: number | null;
}

const TOP = 10;

/**
 * The target's backlink profile from DataForSEO Backlinks: summary, top anchors, top referring domains and
 * twelve months of new and lost links, four live calls made together.
 */
export async function fetchBacklinkProfile(
  config: DataForSeoConfig,
  target: string,
  opts: CallOptions & { now?: Date } = {},
): Promise<{ profile: ProviderBacklinks; cost: number }> {
  const now = opts.now ?? new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const [summary, anchors, domains, newLost] = await Promise.all([
    postLiveTask<SummaryResult>(
      config,
      "/v3/backlinks/summary/live",
      { target, include_subdomains: true },
      opts,
    ),
    postLiveTask<ItemsResult<AnchorItem>>(
      config,
      "/v3/backlinks/anchors/live",
      { target, limit: TOP, order_by: ["backlinks,desc"] },
      opts,
    ),
    postLiveTask<ItemsResult<DomainItem>>(
      config,
      "/v3/backlinks/referring_domains/live",
      { target, limit: TOP, order_by: ["rank,desc"] },
      opts,
    ),
    postLiveTask<ItemsResult<NewLostItem>>(
      config,
      "/v3/backlinks/timeseries_new_lost_summary/live",
      { target, date_from: day(from), date_to: day(now), group_range: "month" },
      opts,
    ),
  ]);
  const s = summary.result[0] ?? {};
  const nofollow = s.referring_links_attributes?.nofollow ?? (s.backlinks != null ? 0 : null);
  const profile: ProviderBacklinks = {
    rank: s.rank ?? null,
    backlinks: s.backlinks ?? null,
    dofollowBacklinks: s.backlinks != null && nofollow != null ? Math.max(0, s.backlinks - nofollow) : null,
    nofollowBacklinks: nofollow,
    referringDomains: s.referring_domains ?? null,
    referringMainDomains: s.referring_main_domains ?? null,
    referringPages: s.referring_pages ?? null,
    topAnchors: (anchors.result[0]?.items ?? []).flatMap((a) =>
      typeof a.anchor === "string"
        ? [{ anchor: a.anchor, backlinks: a.backlinks ?? 0, referringDomains: a.referring_domains ?? null }]
        : [],
    ),
    topReferringDomains: (domains.result[0]?.items ?? []).flatMap((d) =>
      d.domain ? [{ domain: d.domain, rank: d.rank ?? null, backlinks: d.backlinks ?? null }] : [],
    ),
    newLost: (newLost.result[0]?.items ?? [])
      .flatMap((i) =>
        i.date
          ? [
              {
                date: i.date.slice(0, 10),
                newBacklinks: i.new_backlinks ?? 0,
                lostBacklinks: i.lost_backlinks ?? 0,
                newReferringDomains: i.new_referring_domains ?? 0,
                lostReferringDomains: i.lost_referring_domains ?? 0,
              },
            ]
          : [],
      )
      .sort((a, b) => a.date.localeCompare(b.date)),
  };
  return { profile, cost: summary.cost + anchors.cost + domains.cost + newLost.cost };
}

export interface ProviderDomainFigures {
  target: string;
  /** DataForSEO's own 0–1000 rank. */
  rank: number | null;
  referringDomains: number | null;
  referringMainDomains: number | null;
}

/** Rank and referring domains of up to 1000 targets: Backlinks bulk ranks and bulk referring domains. */
export async function fetchBulkDomainFigures(
  config: DataForSeoConfig,
  targets: string[],
  opts: CallOptions = {},
): Promise<{ figures: ProviderDomainFigures[]; cost: number }> {
  const [ranks, referring] = await Promise.all([
    postLiveTask<ItemsResult<{ target?: string; rank?: number | null }>>(
      config,
      "/v3/backlinks/bulk_ranks/live",
      { targets },
      opts,
    ),
    postLiveTask<
      ItemsResult<{
        target?: string;
        referring_domains?: number | null;
        referring_main_domains?: number | null;
      }>
    >(config, "/v3/backlinks/bulk_referring_domains/live", { targets }, opts),
  ]);
  const rankOf = new Map(
    (ranks.result[0]?.items ?? []).map((i) => [i.target?.toLowerCase(), i.rank ?? null]),
  );
  const refOf = new Map((referring.result[0]?.items ?? []).map((i) => [i.target?.toLowerCase(), i]));
  const figures = targets.map((target) => {
    const ref = refOf.get(target.toLowerCase());
    return {
      target,
      rank: rankOf.get(target.toLowerCase()) ?? null,
      referringDomains: ref?.referring_domains ?? null,
      referringMainDomains: ref?.referring_main_domains ?? null,
    };
  });
  return { figures, cost: ranks.cost + referring.cost };
}
