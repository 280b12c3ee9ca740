import {
  DATAFORSEO_ENV,
  DataForSeoError,
  type Env,
  fetchKeywordOverview,
  readDataForSeoConfig,
} from "@/lib/providers/dataforseo";
import type { KeywordMetricsInput, KeywordMetricsResult } from "./metrics-schema";

export type {
  KeywordMetricsInput,
  KeywordMetricsResult,
} from "./metrics-schema";

export type Availability = { ok: true } | { ok: false; reason: string };

export function missingDataForSeoReason(what: string): string {
  return `${what} needs a keyword data provider, and none is configured on this server: set ${DATAFORSEO_ENV.join(" and ")} (and DATAFORSEO_BASE_URL to override https://api.dataforseo.com).`;
}

export function keywordMetricsAvailability(env: Env = process.env): Availability {
  return readDataForSeoConfig(env)
    ? { ok: true }
    : { ok: false, reason: missingDataForSeoReason("Keyword metrics") };
}

export interface ProviderContext {
  signal: AbortSignal;
  env?: Env;
  /** Outbound HTTP to the provider; default the global fetch. */
  providerFetch?: typeof fetch;
}

/** POST /api/v1/keyword-metrics: volume, difficulty, CPC, intent and 12-month trend per keyword. */
export async function runKeywordMetrics(
  input: KeywordMetricsInput,
  ctx: ProviderContext,
): Promise<KeywordMetricsResult> {
  const config = readDataForSeoConfig(ctx.env ?? process.env);
  if (!config)
    throw new DataForSeoError("DATAFORSEO_NOT_CONFIGURED", missingDataForSeoReason("Keyword metrics"));
  const location = input.location ?? 2840;
  const language = input.language ?? "en";
  const distinct = [...new Map(input.keywords.map((k) => [k.toLowerCase(), k])).values()];
  const { metrics } = await fetchKeywordOverview(
    config,
    distinct.map((k) => k.toLowerCase()),
    { location, language },
    { signal: ctx.signal, fetch: ctx.providerFetch },
  );
  const byKeyword = new Map(metrics.map((m) => [m.keyword.toLowerCase(), m]));
  return {
    location,
    language,
    keywords: distinct.map(
      (keyword) =>
        byKeyword.get(keyword.toLowerCase()) ?? {
          keyword,
          searchVolume: null,
          difficulty: null,
          cpc: null,
          competition: null,
          intent: null,
          trend: [],
        },
    ),
    source: "dataforseo",
  };
}
