import { z } from "zod";
import { queryInt } from "@/lib/contract/query";
import { normalizeHostname } from "@/lib/hostname";
import { ENGINE_NAMES } from "@/lib/providers/engine-types";

/** Request and response shapes of GET /engines and GET /visibility (routes, OpenAPI and MCP share them). */

/** Observations are kept 13 months: the window reaches back at most that far. */
export const VISIBILITY_DAYS = { min: 1, max: 395, default: 30 } as const;

export const visibilityQuery = z.object({
  domain: z
    .string()
    .min(1)
    .max(253)
    .refine((v) => normalizeHostname(v) !== null, "Not a valid hostname (like example.com).")
    .describe("A domain registered on the account"),
  days: queryInt(VISIBILITY_DAYS.min, VISIBILITY_DAYS.max, VISIBILITY_DAYS.default).describe(
    `Look-back window in UTC days, today included (default ${VISIBILITY_DAYS.default}, max ${VISIBILITY_DAYS.max})`,
  ),
});

const rate = z.number().min(0).max(1);
const count = z.number().int().min(0);

const visibilitySeries = z.object({
  checks: count.describe("Engine answers observed in the window"),
  citationRate: rate.describe("Share of those answers that cited the domain"),
  mentionRate: rate.describe("Share of those answers that mentioned the domain or its brand"),
  series: z
    .array(
      z.object({
        day: z.string().describe("UTC day, YYYY-MM-DD"),
        checks: count,
        citationRate: rate,
        mentionRate: rate,
      }),
    )
    .describe("One point per UTC day with at least one answer, oldest first"),
});

export const visibilityResult = z.object({
  domain: z.string(),
  days: z.number().int(),
  overall: visibilitySeries.describe("Every engine's answers together"),
  engines: z
    .array(visibilitySeries.extend({ engine: z.enum(ENGINE_NAMES) }))
    .describe("The four engines; an engine never checked has 0 checks and an empty series"),
});

export const enginesResult = z.object({
  engines: z.array(
    z.object({
      name: z.enum(ENGINE_NAMES),
      configured: z
        .boolean()
        .describe("Whether this server holds the provider's key (the key is never shown)"),
      model: z.string().describe("The model the engine is asked with"),
    }),
  ),
});
export type EnginesResult = z.infer<typeof enginesResult>;
