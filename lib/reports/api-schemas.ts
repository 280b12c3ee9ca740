// Shapes of the older interface's reads (client-safe: zod only): /api/tracking/visits, /api/analytics/*.
import { z } from "zod";
import { inPostgresYears, isCalendarDay } from "@/lib/calendar";
import { queryInt } from "@/lib/contract/query";
import { normalizeHostname } from "@/lib/hostname";
import { ENGINE_NAMES } from "@/lib/providers/engine-types";

const hostname = z
  .string()
  .min(1)
  .max(253)
  .refine((v) => normalizeHostname(v) !== null, "Not a valid hostname (like example.com).")
  .describe("A domain registered on the account");

const instant = z
  .string()
  .max(40)
  .refine(
    (v) => isCalendarDay(v) && inPostgresYears(new Date(v)),
    "An ISO 8601 date or date-time of a day that exists, years 0001 to 9999.",
  )
  .transform((v) => new Date(v));

const bool = z.enum(["true", "false"]).transform((v) => v === "true");

const VISITS_LIMIT = { min: 1, max: 200, default: 50 } as const;
/**
 * The longest cursor (and visit id) the visits list writes: base64url of a time (24 characters) and "|" and an event
 * key, at most "id:" and a client's 128 characters of up to 3 UTF-8 bytes each: 412 bytes, 550 characters.
 */
const VISITS_CURSOR_MAX = 600;

export const visitsQuery = z
  .object({
    domain: hostname,
    from: instant.optional().describe("Oldest visit time included (ISO 8601; a date is its UTC midnight)."),
    to: instant.optional().describe("Visits strictly before this time (ISO 8601)."),
    bot: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("Only this bot (its name, e.g. GPTBot; case-insensitive)."),
    aiOnly: bool.optional().describe("`true`: only AI bots."),
    cursor: z
      .string()
      .max(VISITS_CURSOR_MAX)
      .regex(/^[A-Za-z0-9_-]+$/, "Not a cursor from a previous page.")
      .optional()
      .describe("`nextCursor` of the previous page."),
    limit: queryInt(VISITS_LIMIT.min, VISITS_LIMIT.max, VISITS_LIMIT.default).describe(
      "Visits per page (default 50, max 200)",
    ),
  })
  .refine((q) => !q.from || !q.to || q.from < q.to, {
    message: "`from` must be before `to`.",
    path: ["from"],
  });

const visitView = z.object({
  id: z
    .string()
    .describe(
      "The visit's identity within its domain (opaque): its time and event key, the same for every read",
    ),
  timestamp: z.string().describe("ISO 8601 UTC"),
  path: z.string(),
  bot: z.string(),
  purpose: z.string().nullable(),
  isAIBot: z.boolean(),
  verification: z
    .enum(["verified", "spoofed", "unverified"])
    .describe(
      "verified: proven to be the bot it claims; spoofed: the claim is disproved (a failing signature, an address outside the operator's); unverified: nothing proves or disproves it",
    ),
  verificationMethod: z
    .enum(["signature", "ip", "rdns"])
    .nullable()
    .describe(
      "What decided: a Web Bot Auth signature, the operator's published IP ranges, or reverse DNS; null when unverified (or decided before methods were recorded)",
    ),
  status: z.number().int().nullable(),
});
export const visitsResult = z.object({
  domain: z.string(),
  visits: z.array(visitView),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next (older) page; null on the last."),
});

const rate = z.number().min(0).max(1);
const score = z.number().min(0).max(100);
const count = z.number().int().min(0);
const scored = {
  checks: count,
  citationRate: rate,
  mentionRate: rate,
  visibilityScore: score.describe("Mean visibility score of the answers, 0..100"),
};
const scoredSeries = z.object({
  ...scored,
  series: z.array(z.object({ day: z.string(), ...scored })),
});

export const legacyVisibilityQuery = z.object({
  domain: hostname,
  days: queryInt(1, 395, 30).describe("Look-back window in UTC days, today included (default 30, max 395)"),
});
export const legacyVisibilityResult = z.object({
  domain: z.string(),
  days: z.number().int(),
  overall: scoredSeries,
  engines: z.array(scoredSeries.extend({ engine: z.enum(ENGINE_NAMES) })),
});
export type LegacyVisibility = z.infer<typeof legacyVisibilityResult>;

export const reportQuery = z.object({
  domain: hostname,
  period: z.enum(["week", "month"]).default("week").describe("`week` (7 days) or `month` (30 days)"),
  format: z.enum(["json", "csv"]).default("json").describe("`csv`: the same report as CSV"),
});

const change = z.object({
  current: z.number(),
  previous: z.number(),
  change: z.number().nullable().describe("Relative change, e.g. 0.25 for +25 %; null when previous is 0"),
});
export const performanceReport = z.object({
  domain: z.string(),
  period: z.enum(["week", "month"]),
  current: z.object({ from: z.string(), to: z.string() }),
  previous: z.object({ from: z.string(), to: z.string() }),
  botVisits: z.object({
    total: change,
    byBot: z.array(change.extend({ bot: z.string(), purpose: z.string().nullable(), isAIBot: z.boolean() })),
    byPurpose: z.array(change.extend({ purpose: z.string() })),
  }),
  citations: z.object({
    total: change,
    byEngine: z.array(change.extend({ engine: z.string() })),
    byPage: z.array(change.extend({ path: z.string() })),
  }),
  visibility: z.object({
    checks: change,
    citationRate: change,
    mentionRate: change,
    visibilityScore: change,
  }),
  audits: z.array(
    z.object({
      tool: z.string(),
      jobId: z.string(),
      url: z.string(),
      completedAt: z.string(),
      scores: z.record(z.string(), z.number()),
      previousScores: z.record(z.string(), z.number()).nullable(),
    }),
  ),
});
export type PerformanceReport = z.infer<typeof performanceReport>;
