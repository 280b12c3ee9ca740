import { z } from "zod";

/** Keyword figures as results carry them: plain zod, so tool definitions and the dashboard can read the shape. */
export const SEARCH_INTENTS = ["informational", "navigational", "commercial", "transactional"] as const;
export type SearchIntent = (typeof SEARCH_INTENTS)[number];

export const keywordMetrics = z.object({
  keyword: z.string(),
  /** Average monthly searches (Google Ads, last 12 months); null when the provider has no figure. */
  searchVolume: z.number().int().nullable(),
  /** 0–100, DataForSEO Labs keyword difficulty. */
  difficulty: z.number().nullable(),
  /** Cost per click in USD. */
  cpc: z.number().nullable(),
  /** Paid-search competition, 0–1. */
  competition: z.number().nullable(),
  intent: z.enum(SEARCH_INTENTS).nullable(),
  /** Monthly searches, oldest first, at most 12 months. */
  trend: z.array(
    z.object({ year: z.number().int(), month: z.number().int(), searchVolume: z.number().int().nullable() }),
  ),
});
export type KeywordMetrics = z.infer<typeof keywordMetrics>;
