import { z } from "zod";
import { httpUrl } from "@/lib/contract/http-url";
import { keywordMetrics, SEARCH_INTENTS } from "@/lib/contract/keyword-metrics";

// Client-safe (zod and lib/contract only): the tool definition and the dashboard read these schemas.
export const MAX_SEED_KEYWORDS = 10;

/** POST /api/v1/keyword-research: `url` or up to 10 seed `keywords`, never both. */
export const keywordResearchInput = z
  .object({
    url: httpUrl.optional(),
    keywords: z
      .array(
        z
          .string({ error: "Must be a string." })
          .trim()
          .min(1, { error: "Must not be empty." })
          .max(80, { error: "Must be at most 80 characters." }),
        { error: "Must be an array of strings." },
      )
      .min(1, { error: "Give at least one keyword." })
      .max(MAX_SEED_KEYWORDS, { error: `At most ${MAX_SEED_KEYWORDS} seed keywords.` })
      .optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.url !== undefined && v.keywords !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["keywords"],
        message: "Provide either url or keywords, not both.",
      });
    } else if (v.url === undefined && v.keywords === undefined) {
      ctx.addIssue({ code: "custom", path: ["url"], message: "Provide either url or keywords." });
    }
  });
export type KeywordResearchInput = z.infer<typeof keywordResearchInput>;

const question = z.object({ question: z.string(), url: z.string() });

const keyphraseResult = z.object({
  phrase: z.string(),
  score: z.number(),
  occurrences: z.number().int(),
  /** Pages of the site using it, strongest first (at most 5). */
  pages: z.array(z.string()),
  zones: z.array(z.enum(["title", "description", "h1", "h2", "h3", "anchor", "body"])),
});

const topicResult = z.object({
  topic: z.string(),
  score: z.number(),
  keyphrases: z.array(z.string()),
  intent: z.enum(SEARCH_INTENTS),
  intentReason: z.string(),
  pages: z.array(z.object({ url: z.string(), title: z.string().nullable() })),
  questions: z.array(question),
});

const fromUrl = z.object({
  mode: z.literal("url"),
  url: z.string(),
  siteUrl: z.string(),
  pagesCrawled: z.number().int(),
  /** `extractive`: every phrase, topic and question was found on the site; nothing is generated. */
  source: z.literal("extractive"),
  background: z.string(),
  keyphrases: z.array(keyphraseResult),
  topics: z.array(topicResult),
  questions: z.array(question),
  /** Search figures of the top keyphrases; null when no keyword data provider is configured. */
  metrics: z.array(keywordMetrics).nullable(),
  metricsSource: z.literal("dataforseo").nullable(),
});

const fromKeywords = z.object({
  mode: z.literal("keywords"),
  seeds: z.array(z.string()),
  /** The seeds' own figures, in the order given. */
  metrics: z.array(keywordMetrics),
  /** Related keyword ideas, most searched first. */
  ideas: z.array(keywordMetrics),
  metricsSource: z.literal("dataforseo"),
});

export const keywordResearchResult = z.discriminatedUnion("mode", [fromUrl, fromKeywords]);
export type KeywordResearchResult = z.infer<typeof keywordResearchResult>;
