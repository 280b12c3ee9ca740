import { z } from "zod";
import { queryInt } from "@/lib/contract/query";
import { normalizeHostname } from "@/lib/hostname";

/** Request and response shapes of GET /tracking/pages, the page funnel (route, OpenAPI, MCP and dashboard). */

export const PAGES_DAYS = { min: 1, max: 90, default: 30 } as const;
export const PAGES_LIMIT = { min: 1, max: 200, default: 50 } as const;
export const PAGE_SORTS = ["crawls", "citations", "referrals", "firstCitation", "path"] as const;
export type PageSort = (typeof PAGE_SORTS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const pagesQuery = z
  .object({
    domain: z
      .string()
      .min(1)
      .max(253)
      .refine((v) => normalizeHostname(v) !== null, "Not a valid hostname (like example.com).")
      .describe("A domain registered on the account"),
    days: queryInt(PAGES_DAYS.min, PAGES_DAYS.max, PAGES_DAYS.default).describe(
      `Look-back window in UTC days, today included (default ${PAGES_DAYS.default}, max ${PAGES_DAYS.max})`,
    ),
    limit: queryInt(PAGES_LIMIT.min, PAGES_LIMIT.max, PAGES_LIMIT.default).describe(
      `Pages per answer (default ${PAGES_LIMIT.default}, max ${PAGES_LIMIT.max})`,
    ),
    sort: z
      .enum(PAGE_SORTS)
      .default("crawls")
      .describe(
        "crawls (AI crawls), citations, referrals (AI-referred visits), firstCitation (time of the first citation) or path; default crawls",
      ),
    order: z
      .enum(SORT_ORDERS)
      .optional()
      .describe("asc or desc; default desc, asc when sorting by path or firstCitation"),
    cursor: z
      .string()
      .min(1)
      .max(600)
      .optional()
      .describe("The `nextCursor` of the previous answer, with the same domain, days, sort and order"),
  })
  .strict();

const count = z.number().int().min(0);
const byName = (what: string) =>
  z.array(z.object({ name: z.string().describe(what), count })).describe(`Citations by ${what}, most first`);

/** What a connected source says about a page, or why it says nothing. */
const sourceStatus = z.object({
  status: z
    .enum(["connected", "not_connected", "reconnect_required", "unavailable"])
    .describe(
      "connected: the figures are the source's; otherwise every page's figures from it are null (never guessed)",
    ),
  source: z.string().nullable().describe("google-search-console, ga4 or plausible when connected, else null"),
  property: z.string().nullable().describe("The property or site read, when connected"),
  message: z.string().nullable().describe("Why there are no figures, and what to do"),
  complete: z
    .boolean()
    .describe(
      "Whether every page the source knows for the period was read; when false a page it does not list is null, not 0",
    ),
});

const pageFunnelRow = z.object({
  path: z.string().describe("The page's path, query string dropped"),
  aiCrawls: z.object({
    total: count.describe(
      "Visits of AI crawlers (training, search and other AI bots; user-triggered fetches excluded)",
    ),
    verified: count.describe(
      "Of total: verified as their operator (signature, published address range or reverse DNS)",
    ),
  }),
  firstCrawlAt: z.string().nullable().describe("The page's first AI crawl in the period (ISO 8601)"),
  citations: z.object({
    total: count.describe(
      "Visits that show an AI engine citing the page: an assistant's user-triggered fetch or a person it referred",
    ),
    byEngine: byName("AI engine"),
    byAssistant: byName("assistant (the user-triggered fetcher that read the page)"),
  }),
  firstCitationAt: z.string().nullable().describe("The page's first citation in the period (ISO 8601)"),
  hoursFromFirstCrawlToFirstCitation: z
    .number()
    .min(0)
    .nullable()
    .describe(
      "Hours from the first AI crawl to the first citation, when both fall in the period in that order",
    ),
  aiReferredVisits: count.describe("Visits by people an AI engine referred (part of citations)"),
  search: z
    .object({ impressions: count, clicks: count })
    .nullable()
    .describe("Google Search Console figures of the page over the period; null when not known"),
  sessions: count.nullable().describe("Analytics sessions of the page over the period; null when not known"),
});
export type PageFunnelRow = z.infer<typeof pageFunnelRow>;

const operatorFunnelRow = z.object({
  operator: z.string().describe("Who runs the crawlers and the engine (OpenAI, Anthropic, …)"),
  aiCrawls: count,
  aiReferredVisits: count,
  crawlsPerReferredVisit: z
    .number()
    .min(0)
    .nullable()
    .describe("aiCrawls ÷ aiReferredVisits; null when the operator referred nobody"),
});

export const pagesResult = z.object({
  domain: z.string(),
  periodDays: z.number().int(),
  startDate: z.string().describe("First UTC day of the period (YYYY-MM-DD)"),
  endDate: z.string().describe("Last UTC day of the period, today"),
  sort: z.enum(PAGE_SORTS),
  order: z.enum(SORT_ORDERS),
  totals: z.object({
    pages: count.describe("Pages with AI crawls or citations in the period"),
    aiCrawls: count,
    verifiedAiCrawls: count,
    citations: count,
    aiReferredVisits: count,
  }),
  pages: z.array(pageFunnelRow),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next pages; null on the last"),
  operators: z.array(operatorFunnelRow).describe("Per operator over the period, most crawls first"),
  searchConsole: sourceStatus,
  analytics: sourceStatus,
  method: z.string().describe("How the figures were produced"),
});
export type PagesReport = z.infer<typeof pagesResult>;
export type SourceStatus = z.infer<typeof sourceStatus>;
