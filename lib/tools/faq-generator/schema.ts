import { z } from "zod";
import { httpUrl } from "../shared-schemas";

export const faqGeneratorInput = z.object({ url: httpUrl }).strict();
export type FaqGeneratorInput = z.infer<typeof faqGeneratorInput>;

export const PAIR_SOURCES = ["faq-schema", "details", "definition-list", "heading", "definition"] as const;
export type PairSource = (typeof PAIR_SOURCES)[number];

export const MIN_PAIRS = 8;
export const MAX_PAIRS = 10;

const pair = z.object({
  question: z.string(),
  /** Whole sentences taken from the page, never rewritten. */
  answer: z.string(),
  /** Where on the page the pair was found. */
  source: z.enum(PAIR_SOURCES),
});
export type FaqPair = z.infer<typeof pair>;

export const faqPageJsonLd = z.object({
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
