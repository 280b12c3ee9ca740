import { z } from "zod";
import { httpUrl } from "../shared-schemas";

export const faqGeneratorInput = z.object({ url: httpUrl }).strict();
export type FaqGeneratorInput = z.infer<typeof faqGeneratorInput>;

const PAIR_SOURCES = [
  "faq-schema",
  "details",
  "definition-list",
  "heading",
  "definition",
  "generated",
] as const;

export const MIN_PAIRS = 8;
export const MAX_PAIRS = 10;

const pair = z.object({
  question: z.string(),
  /** Extracted pairs: whole sentences taken from the page, never rewritten. Generated pairs: the engine's words. */
  answer: z.string(),
  /** Where on the page the pair was found; "generated" when an AI engine wrote it from the page's sentences. */
  source: z.enum(PAIR_SOURCES),
  /** Generated pairs: the page's sentences the answer rests on, verbatim (each checked to be on the page). */
  supportingSentences: z.array(z.string()).optional(),
});
export type FaqPair = z.infer<typeof pair>;

const faqPageJsonLd = z.object({
  "@context": z.literal("https://schema.org"),
  "@type": z.literal("FAQPage"),
  mainEntity: z.array(
    z.object({
      "@type": z.literal("Question"),
      name: z.string(),
      acceptedAnswer: z.object({ "@type": z.literal("Answer"), text: z.string() }),
    }),
  ),
});
export type FaqPageJsonLd = z.infer<typeof faqPageJsonLd>;

export const faqGeneratorResult = z.object({
  /** How the pairs were made: written by an AI engine from the page's sentences, or extracted as they stand. */
  method: z.object({
    kind: z.enum(["generated", "extracted"]),
    engine: z.string().nullable(),
    model: z.string().nullable(),
    /** Pairs the engine wrote that the page could not support and were left out. */
    unsupportedDropped: z.number().int(),
    /** Why the engine was not used when one is configured (its error). */
    note: z.string().nullable(),
  }),
  url: z.string(),
  finalUrl: z.string(),
  count: z.number().int().min(MIN_PAIRS).max(MAX_PAIRS),
  pairs: z.array(pair).min(MIN_PAIRS).max(MAX_PAIRS),
  /** The FAQPage structured data for the pairs. */
  jsonLd: faqPageJsonLd,
  /** `jsonLd` in a ready-to-embed <script type="application/ld+json"> element. */
  html: z.string(),
});
export type FaqGeneratorResult = z.infer<typeof faqGeneratorResult>;
