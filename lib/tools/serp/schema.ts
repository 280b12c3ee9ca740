import { z } from "zod";
import { caseInsensitiveEnum, hostname } from "../domain-schemas";

// Client-safe (zod only): the tool definition, the OpenAPI document and the dashboard read these schemas.

export const SERP_DEVICES = ["desktop", "mobile"] as const;
export const SERP_DEPTH = { min: 10, max: 100, default: 10 } as const;

export const serpInput = z
  .object({
    keyword: z
      .string({ error: "Must be a string." })
      .trim()
      .min(1, { error: "Must not be empty." })
      .max(200, { error: "Must be at most 200 characters." }),
    country: z
      .string({ error: "Must be a string." })
      .regex(/^[A-Za-z]{2}$/, { error: "Must be a two-letter country code (ISO 3166-1), e.g. US." })
      .transform((c) => c.toUpperCase())
      .default("US"),
    language: z
      .string({ error: "Must be a string." })
      .regex(/^[a-z]{2}$/, { error: "Must be a two-letter language code, e.g. en." })
      .default("en"),
    device: caseInsensitiveEnum(SERP_DEVICES, "Must be desktop or mobile.").default("desktop"),
    depth: z
      .number({ error: "Must be a whole number." })
      .int({ error: "Must be a whole number." })
      .min(SERP_DEPTH.min, { error: `Must be at least ${SERP_DEPTH.min}.` })
      .max(SERP_DEPTH.max, { error: `Must be at most ${SERP_DEPTH.max}.` })
      .default(SERP_DEPTH.default),
    /** Domains to look for besides the account's registered ones. */
    domains: z
      .array(hostname, { error: "Must be an array of domains." })
      .max(5, { error: "At most 5 domains." })
      .optional(),
  })
  .strict();
export type SerpInput = z.output<typeof serpInput>;

const organicResult = z.object({
  position: z.number().int(),
  absolutePosition: z.number().int(),
  url: z.string(),
  domain: z.string(),
  title: z.string(),
  snippet: z.string().nullable(),
  /** True when the URL is on one of `yourDomains` (subdomains count). */
  isYours: z.boolean(),
});

const overviewSource = z.object({
  position: z.number().int(),
  url: z.string(),
  domain: z.string(),
  title: z.string().nullable(),
  source: z.string().nullable(),
  isYours: z.boolean(),
});

export const serpResult = z.object({
  keyword: z.string(),
  country: z.string(),
  language: z.string(),
  device: z.enum(SERP_DEVICES),
  /** When the provider read the page (ISO 8601 UTC). */
  checkedAt: z.string().nullable(),
  /** Google's own estimate of the number of results. */
  totalResults: z.number().nullable(),
  /** SERP features present on the page besides organic results (`ai_overview`, `people_also_ask`, …). */
  features: z.array(z.string()),
  organic: z.array(organicResult),
  /** Null when Google showed no AI overview for this search. */
  aiOverview: z
    .object({
      position: z.number().int(),
      text: z.string(),
      sources: z.array(overviewSource),
      /** Whether any source is on one of `yourDomains`. */
      citesYou: z.boolean(),
    })
    .nullable(),
  /** The domains looked for: the account's registered domains and the request's `domains`. */
  yourDomains: z.array(z.string()),
  /** Per domain: its best organic position (null when absent) and whether the AI overview cites it. */
  you: z.array(
    z.object({
      domain: z.string(),
      bestPosition: z.number().int().nullable(),
      citedInAiOverview: z.boolean(),
    }),
  ),
  source: z.literal("dataforseo"),
});
export type SerpResult = z.output<typeof serpResult>;
