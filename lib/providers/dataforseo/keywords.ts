import { type KeywordMetrics, SEARCH_INTENTS, type SearchIntent } from "@/lib/contract/keyword-metrics";
import { type CallOptions, type DataForSeoConfig, postLiveTask } from "./client";

export type { KeywordMetrics } from "@/lib/contract/keyword-metrics";

/** Where the searches are counted: a DataForSEO location code (2840 = United States) or its full name. */
export interface Market {
  location?: number | string;
  /** ISO 639-1 code, default `en`. */
  language?: string;
}

/** The fields of a DataForSEO Labs keyword item this service reads. */
interface LabsKeywordItem {
  keyword?: string;
  keyword_data?: LabsKeywordItem;
  keyword_info?: {
    search_volume?: number | null;
    cpc?: number | null;
    competition?: number | null;
    monthly_searches?: { year: number; month: number; search_volume: number | null }[] | null;
  } | null;
  keyword_properties?: { keyword_difficulty?: number | null } | null;
  search_intent_info?: { main_intent?: string | null } | null;
}

interface LabsResult {
  items?: LabsKeywordItem[] | null;
  total_count?: number;
}

function marketFields(market: Market) {
  const location = market.location ?? 2840;
  return {
    ...(typeof location === "number" ? { location_code: location } : { location_name: location }),
    language_code: market.language ?? "en",
  };
}

function toMetrics(raw: LabsKeywordItem): KeywordMetrics | null {
  const item = raw.keyword_data ?? raw;
  if (!item.keyword) return null;
  const info = item.keyword_info ?? {};
  const intent = item.search_intent_info?.main_intent ?? null;
  const trend = [...(info.monthly_searches ?? [])]
    .sort((a, b) => a.year - b.year || a.month - b.month)
    .slice(-12)
    .map((m) => ({ year: m.year, month: m.month, searchVolume: m.search_volume ?? null }));
  return {
    keyword: item.keyword,
    searchVolume: info.search_volume ?? null,
    difficulty: item.keyword_properties?.keyword_difficulty ?? null,
    cpc: info.cpc ?? null,
    competition: info.competition ?? null,
    intent: (SEARCH_INTENTS as readonly string[]).includes(intent ?? "") ? (intent as SearchIntent) : null,
    trend,
  };
}

/**
 * Volume, difficulty, CPC, intent and the monthly trend of known keywords, in one call to DataForSEO Labs'
 * keyword overview (up to 700 keywords a task). Keywords the provider has no data for are left out.
 */
export async function fetchKeywordOverview(
  config: DataForSeoConfig,
  keywords: string[],
  market: Market,
  opts: CallOptions = {},
): Promise<{ metrics: KeywordMetrics[]; cost: number }> {
  const answer = await postLiveTask<LabsResult>(
    config,
    "/v3/dataforseo_labs/google/keyword_overview/live",
    { keywords, ...marketFields(market), include_serp_info: false },
    opts,
  );
  const metrics = answer.result.flatMap((r) => r.items ?? []).flatMap((i) => toMetrics(i) ?? []);
  return { metrics, cost: answer.cost };
}

/** Related keyword ideas for seed keywords (DataForSEO Labs keyword ideas), best-searched first. */
export async function fetchKeywordIdeas(
  config: DataForSeoConfig,
  seeds: string[],
  market: Market & { limit?: number },
  opts: CallOptions = {},
): Promise<{ ideas: KeywordMetrics[]; cost: number }> {
  const answer = await postLiveTask<LabsResult>(
    config,
    "/v3/dataforseo_labs/google/keyword_ideas/live",
    {
      keywords: seeds,
      ...marketFields(market),
      limit: market.limit ?? 50,
      order_by: ["keyword_info.search_volume,desc"],
      include_serp_info: false,
    },
    opts,
  );
  const ideas = answer.result.flatMap((r) => r.items ?? []).flatMap((i) => toMetrics(i) ?? []);
  return { ideas, cost: answer.cost };
}
