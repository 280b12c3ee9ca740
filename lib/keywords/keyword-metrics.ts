import { z } from "zod";
import {
  DATAFORSEO_ENV,
  DataForSeoError,
  type Env,
  fetchKeywordOverview,
  keywordMetrics,
  readDataForSeoConfig,
} from "@/lib/providers/dataforseo";

export type Availability = { ok: true } | { ok: false; reason: string };

const keywordText = z
  .string({ error: "Must be a string." })
  .trim()
  .min(1, { error: "Must not be empty." })
  .max(80, { error: "Must be at most 80 characters." });

/** A DataForSEO location code (2840 = United States) or the location's full name ("United Kingdom"). */
export const marketLocation = z.union(
  [
    z.number().int({ error: "Must be a whole number." }).positive(),
    z.string().trim().min(2).max(100, { error: "Must be at most 100 characters." }),
  ],
  { error: "Must be a location code or name." },
);
/** ISO 639-1 language code. */
export const marketLanguage = z
  .string({ error: "Must be a string." })
  .regex(/^[a-z]{2}$/, { error: "Must be a two-letter language code, e.g. en." });

export const keywordMetricsInput = z
  .object({
    keywords: z
      .array(keywordText, { error: "Must be an array of strings." })
      .min(1, { error: "Give at least one keyword." })
      .max(100, { error: "At most 100 keywords." }),
    location: marketLocation.optional(),
    language: marketLanguage.optional(),
  })
  .strict();
export type KeywordMetricsInput = z.infer<typeof keywordMetricsInput>;

export const keywordMetricsResult = z.object({
  location: z.union([z.number(), z.string()]),
  language: z.string(),
  /** One entry per distinct keyword asked, in the order asked; figures null where the provider has none. */
  keywords: z.array(keywordMetrics),
  source: z.literal("dataforseo"),
});
export type KeywordMetricsResult = z.infer<typeof keywordMetricsResult>;

/** Credits: one per distinct keyword. */
export function costKeywordMetrics(input: KeywordMetricsInput): number {
  return new Set(input.keywords.map((k) => k.toLowerCase())).size;
}

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
