import { z } from "zod";
import { keywordMetrics } from "@/lib/contract/keyword-metrics";

// Client-safe (zod and lib/contract only): the tool definition and the dashboard read these schemas.

const keywordText = z
  .string({ error: "Must be a string." })
  .trim()
  .min(1, { error: "Must not be empty." })
  .max(80, { error: "Must be at most 80 characters." });

/** A DataForSEO location code (2840 = United States) or the location's full name ("United Kingdom"). */
const marketLocation = z.union(
  [
    z.number().int({ error: "Must be a whole number." }).positive(),
    z.string().trim().min(2).max(100, { error: "Must be at most 100 characters." }),
  ],
  { error: "Must be a location code or name." },
);
/** ISO 639-1 language code. */
const marketLanguage = z
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
