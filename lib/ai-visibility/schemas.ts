import { z } from "zod";
import { ENGINE_NAMES } from "@/lib/providers/engine-types";

/** Result schemas of the two AI visibility tools. Free of server imports: usable by routes, OpenAPI and UI. */

export const SENTIMENTS = ["positive", "neutral", "negative"] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export const engineName = z.enum(ENGINE_NAMES);
export const sentiment = z.enum(SENTIMENTS);

export const engineSource = z.object({
  url: z.string(),
  title: z.string(),
  /** Registrable domain of the page; null when it cannot be told (e.g. an unresolved redirect without title). */
  domain: z.string().nullable(),
});

export const engineFailure = z.object({ code: z.string(), message: z.string() });

/** One engine's entry: the spec's fields, then the answer, its sources, the model and, on failure, the error. */
export const engineResult = z.object({
  engine: engineName,
  cited: z.boolean(),
  citedUrls: z.array(z.string()),
  mentionPosition: z.number().int().min(0),
  sentiment,
  answer: z.string(),
  sources: z.array(engineSource),
  model: z.string(),
  error: engineFailure.optional(),
});
export type EngineResult = z.infer<typeof engineResult>;

export const aiCitationCheckResult = z.object({
  domain: z.string(),
  summary: z.object({
    citedIn: z.array(engineName),
    mentionedIn: z.array(engineName),
    notFoundIn: z.array(engineName),
    citationRate: z.number().min(0).max(1),
    visibilityScore: z.number().int().min(0).max(100),
    competitors: z.array(
      z.object({ domain: z.string(), citedIn: z.array(engineName), citationRate: z.number().min(0).max(1) }),
    ),
  }),
  results: z.array(engineResult),
  /** The names the answers were searched for: the domain, its label and the site's own name. */
  brandNames: z.array(z.string()),
  sentimentMethod: z.string(),
});
export type AiCitationCheckResult = z.infer<typeof aiCitationCheckResult>;

export const brandMention = z.object({
  domain: z.string(),
  /** The words as the answer wrote them. */
  text: z.string(),
  position: z.number().int().min(1),
  cited: z.boolean(),
});

export const brandVisibilityResult = engineResult.extend({
  domain: z.string(),
  mentions: z.array(brandMention),
  competitors: z.array(
    z.object({
      domain: z.string(),
      mentioned: z.boolean(),
      mentionPosition: z.number().int().min(0),
      cited: z.boolean(),
    }),
  ),
  brandNames: z.array(z.string()),
  sentimentMethod: z.string(),
});
export type BrandVisibilityResult = z.infer<typeof brandVisibilityResult>;

/** Provider token usage of one engine call: for operators (kept on the job), never in a customer's result. */
export const engineUsage = z.object({
  engine: engineName,
  model: z.string(),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  attempts: z.number().int().min(0),
});
export type EngineUsageRecord = z.infer<typeof engineUsage>;
