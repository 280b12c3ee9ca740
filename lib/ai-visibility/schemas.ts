import { z } from "zod";
import { ENGINE_NAMES } from "@/lib/providers/engine-types";

/** Result schemas of the two AI visibility tools. Free of server imports: usable by routes, OpenAPI and UI. */

const SENTIMENTS = ["positive", "neutral", "negative"] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

/**
 * The judge's finer labels: `mixed` is praise and criticism of the brand together, neither dominant. It counts
 * as `neutral` in the three-valued `sentiment` (the overall lean of a balanced judgement is none).
 */
export const SENTIMENT_LABELS = ["positive", "neutral", "negative", "mixed"] as const;
export type SentimentLabel = (typeof SENTIMENT_LABELS)[number];
const SENTIMENT_METHODS = ["model", "lexicon"] as const;

const engineName = z.enum(ENGINE_NAMES);
const sentiment = z.enum(SENTIMENTS);

/** How one answer's tone was judged: the finer label, the method and, for a model, which one. */
const sentimentDetail = z.object({
  label: z.enum(SENTIMENT_LABELS),
  method: z.enum(SENTIMENT_METHODS),
  model: z.string().optional(),
});

const engineSource = z.object({
  url: z.string(),
  title: z.string(),
  /** Registrable domain of the page; null when it cannot be told (e.g. an unresolved redirect without title). */
  domain: z.string().nullable(),
});

const engineFailure = z.object({ code: z.string(), message: z.string() });

/**
 * One engine's entry: the spec's fields, then the answer, what it cites (`sources`), what it read
 * (`retrieved`), the searches it ran (`queries`), the model and, on failure, the error.
 */
const engineResult = z.object({
  engine: engineName,
  cited: z.boolean(),
  citedUrls: z.array(z.string()),
  mentionPosition: z.number().int().min(0),
  sentiment,
  /** Absent when the brand is not mentioned (there is nothing to judge). */
  sentimentDetail: sentimentDetail.optional(),
  answer: z.string(),
  /** Cited: the sources the answer attaches to its text. */
  sources: z.array(engineSource),
  /** Retrieved: the search results the engine read, cited or not (empty in results stored before it existed). */
  retrieved: z.array(engineSource).default([]),
  /** The searches the engine reports running (Perplexity reports none). */
  queries: z.array(z.string()).default([]),
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

const brandMention = z.object({
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

/**
 * Provider token usage of one engine call: for operators (kept on the job), never in a customer's result.
 * `purpose: "sentiment"` marks a sentiment judgement's call; an answer's record carries no purpose.
 */
export const engineUsage = z.object({
  engine: engineName,
  purpose: z.literal("sentiment").optional(),
  model: z.string(),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  attempts: z.number().int().min(0),
});
export type EngineUsageRecord = z.infer<typeof engineUsage>;
