import { z } from "zod";
import { queryInt } from "@/lib/contract/query";
import { normalizeHostname } from "@/lib/hostname";

/** Request and response shapes of GET /search-console/queries and GET /analytics/traffic (routes, OpenAPI, MCP). */

const domainParam = z
  .string()
  .min(1)
  .max(253)
  .refine((v) => normalizeHostname(v) !== null, "Not a valid hostname (like example.com).")
  .describe("A domain registered on the account");

/** Search Console keeps 16 months of data. */
export const SEARCH_CONSOLE_DAYS = { min: 1, max: 480, default: 28 } as const;
const SEARCH_CONSOLE_QUERY_DIMENSIONS = ["query", "page", "country", "device", "date"] as const;
export type SearchConsoleQueryDimension = (typeof SEARCH_CONSOLE_QUERY_DIMENSIONS)[number];

export const searchConsoleQuery = z.object({
  domain: domainParam,
  days: queryInt(SEARCH_CONSOLE_DAYS.min, SEARCH_CONSOLE_DAYS.max, SEARCH_CONSOLE_DAYS.default).describe(
    "Look-back window in UTC days ending today (default 28, max 480)",
  ),
  dimensions: z
    .string()
    .max(100)
    .optional()
    .transform((v, ctx) => {
      const parts = (v ?? "query")
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .filter(Boolean);
      const unknown = parts.filter(
        (p) => !(SEARCH_CONSOLE_QUERY_DIMENSIONS as readonly string[]).includes(p),
      );
      if (unknown.length > 0 || parts.length === 0 || new Set(parts).size !== parts.length) {
        ctx.addIssue({
          code: "custom",
          message: `Must be a comma-separated list of distinct ${SEARCH_CONSOLE_QUERY_DIMENSIONS.join(", ")}.`,
        });
        return z.NEVER;
      }
      return parts as SearchConsoleQueryDimension[];
    })
    .describe("Comma-separated: query, page, country, device, date (default query)"),
});

const figures = {
  clicks: z.number().int().min(0),
  impressions: z.number().int().min(0),
  ctr: z.number().min(0).max(1).describe("Clicks ÷ impressions"),
  position: z.number().min(0).describe("Average position in Google's results (1 = top)"),
};

export const searchConsoleResult = z.object({
  domain: z.string(),
  property: z.string().describe("The Search Console property read: sc-domain:… or a URL prefix"),
  startDate: z.string(),
  endDate: z.string(),
  dimensions: z.array(z.enum(SEARCH_CONSOLE_QUERY_DIMENSIONS)),
  totals: z.object({ clicks: figures.clicks, impressions: figures.impressions, ctr: figures.ctr }),
  rows: z
    .array(
      z.object({
        keys: z.record(z.string(), z.string()).describe("One value per dimension asked, by its name"),
        ...figures,
      }),
    )
    .describe("At most 1000 rows, most clicked first"),
  source: z.literal("google-search-console"),
});
export type SearchConsoleResult = z.infer<typeof searchConsoleResult>;

/** GA4 keeps 14 months by default. */
const TRAFFIC_DAYS = { min: 1, max: 400, default: 30 } as const;
const TRAFFIC_SOURCES = ["ga4", "plausible"] as const;

export const trafficQuery = z.object({
  domain: domainParam,
  days: queryInt(TRAFFIC_DAYS.min, TRAFFIC_DAYS.max, TRAFFIC_DAYS.default).describe(
    "Look-back window in UTC days, today included (default 30, max 400)",
  ),
  source: z
    .enum(TRAFFIC_SOURCES)
    .optional()
    .describe("ga4 or plausible; default: GA4 when a property is set for the domain, else Plausible"),
});

const visits = z.number().int().min(0);

export const trafficResult = z.object({
  domain: z.string(),
  source: z.enum(TRAFFIC_SOURCES),
  /** The GA4 property or the Plausible site read. */
  property: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  totals: z.object({ visits, visitors: visits, pageviews: visits }),
  aiReferred: z.object({
    visits,
    share: z.number().min(0).max(1).describe("AI-referred visits ÷ all visits"),
    byEngine: z.array(z.object({ engine: z.string(), visits })),
  }),
  sources: z
    .array(z.object({ source: z.string(), visits, aiEngine: z.string().nullable() }))
    .describe("Traffic sources, most visits first (at most 25)"),
  topPages: z.array(z.object({ path: z.string(), pageviews: visits })).describe("At most 10"),
  daily: z
    .array(z.object({ date: z.string().describe("YYYY-MM-DD"), visits, aiVisits: visits }))
    .describe("One point per day with visits, oldest first"),
});
export type TrafficResult = z.infer<typeof trafficResult>;
