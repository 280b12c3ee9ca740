import { type CallOptions, type DataForSeoConfig, postLiveTask } from "./client";

/** What to search: DataForSEO's SERP task fields this service sets. */
export interface SerpQuery {
  keyword: string;
  /** The location's full English name as DataForSEO lists it ("United States", "Germany"). */
  locationName: string;
  /** ISO 639-1 code. */
  languageCode: string;
  device: "desktop" | "mobile";
  /** Results to parse (DataForSEO bills per block of 100). */
  depth: number;
}

/** An `ai_overview_reference` item: a source the AI overview cites. */
interface RawReference {
  type?: string;
  source?: string | null;
  domain?: string | null;
  url?: string | null;
  title?: string | null;
  text?: string | null;
}

/** An element inside the AI overview (`ai_overview_element`, `…_expanded_element`, `…_table_element`, …). */
interface RawOverviewElement {
  type?: string;
  title?: string | null;
  text?: string | null;
  markdown?: string | null;
  references?: RawReference[] | null;
  components?: RawOverviewElement[] | null;
}

/** A SERP item of the advanced result; only the fields this service reads. */
interface RawItem {
  type?: string;
  rank_group?: number;
  rank_absolute?: number;
  domain?: string | null;
  url?: string | null;
  title?: string | null;
  description?: string | null;
  breadcrumb?: string | null;
  asynchronous_ai_overview?: boolean;
  markdown?: string | null;
  items?: RawOverviewElement[] | null;
  references?: RawReference[] | null;
}

interface RawSerpResult {
  keyword?: string;
  check_url?: string;
  datetime?: string;
  item_types?: string[] | null;
  se_results_count?: number | null;
  items?: RawItem[] | null;
}

interface SerpOrganic {
  position: number;
  absolutePosition: number;
  url: string;
  domain: string;
  title: string;
  snippet: string | null;
}

interface SerpOverviewSource {
  position: number;
  url: string;
  domain: string;
  title: string | null;
  source: string | null;
}

export interface SerpPage {
  checkUrl: string | null;
  /** When DataForSEO read the page, ISO 8601 UTC. */
  checkedAt: string | null;
  totalResults: number | null;
  /** The SERP feature types present (`ai_overview`, `people_also_ask`, …), organic excluded. */
  features: string[];
  organic: SerpOrganic[];
  aiOverview: { position: number; text: string; sources: SerpOverviewSource[] } | null;
}

const SERP_ADVANCED_PATH = "/v3/serp/google/organic/live/advanced";

/** DataForSEO's "2019-11-15 12:57:46 +00:00" as ISO 8601. */
function toIso(datetime: string | undefined): string | null {
  if (!datetime) return null;
  const d = new Date(datetime.replace(" ", "T").replace(" ", ""));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/** The overview's text (each element's text, in order) and its cited sources, deduplicated by URL. */
function readOverview(item: RawItem): { text: string; sources: SerpOverviewSource[] } {
  const texts: string[] = [];
  const refs: RawReference[] = [];
  const walk = (elements: RawOverviewElement[] | null | undefined) => {
    for (const el of elements ?? []) {
      const t = (el.text ?? el.markdown ?? "").trim();
      if (t) texts.push(el.title ? `${el.title.trim()}\n${t}` : t);
      refs.push(...(el.references ?? []));
      walk(el.components);
    }
  };
  walk(item.items);
  refs.push(...(item.references ?? []));
  const seen = new Set<string>();
  const sources: SerpOverviewSource[] = [];
  for (const r of refs) {
    if (!r.url || seen.has(r.url)) continue;
    seen.add(r.url);
    sources.push({
      position: sources.length + 1,
      url: r.url,
      domain: (r.domain ?? hostOf(r.url)).toLowerCase(),
      title: r.title ?? null,
      source: r.source ?? null,
    });
  }
  const text = texts.length > 0 ? texts.join("\n\n") : (item.markdown ?? "").trim();
  return { text, sources };
}

/**
 * One live Google results page through DataForSEO's SERP API (organic, advanced), with the AI overview
 * loaded even when Google renders it asynchronously (`load_async_ai_overview`).
 */
export async function fetchGoogleSerp(
  config: DataForSeoConfig,
  query: SerpQuery,
  opts: CallOptions = {},
): Promise<{ page: SerpPage; cost: number }> {
  const answer = await postLiveTask<RawSerpResult>(
    config,
    SERP_ADVANCED_PATH,
    {
      keyword: query.keyword,
      location_name: query.locationName,
      language_code: query.languageCode,
      device: query.device,
      depth: query.depth,
      load_async_ai_overview: true,
    },
    opts,
  );
  const raw = answer.result[0];
  const items = raw?.items ?? [];
  const organic: SerpOrganic[] = items
    .filter((i) => i.type === "organic" && i.url)
    .map((i) => ({
      position: i.rank_group ?? 0,
      absolutePosition: i.rank_absolute ?? 0,
      url: i.url as string,
      domain: (i.domain ?? hostOf(i.url as string)).toLowerCase(),
      title: i.title ?? "",
      snippet: i.description ?? null,
    }));
  const overviewItem = items.find((i) => i.type === "ai_overview");
  const overview = overviewItem ? readOverview(overviewItem) : null;
  const features = [...new Set([...(raw?.item_types ?? []), ...items.flatMap((i) => i.type ?? [])])].filter(
    (t) => t !== "organic",
  );
  return {
    page: {
      checkUrl: raw?.check_url ?? null,
      checkedAt: toIso(raw?.datetime),
      totalResults: raw?.se_results_count ?? null,
      features,
      organic,
      aiOverview: overview ? { position: overviewItem?.rank_absolute ?? 0, ...overview } : null,
    },
    cost: answer.cost,
  };
}
