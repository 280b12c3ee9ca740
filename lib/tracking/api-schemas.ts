import { z } from "zod";
import { queryInt } from "@/lib/contract/query";
import { normalizeHostname } from "@/lib/hostname";
import { MAX_EVENTS_PER_BATCH } from "./ingest/event-schema";
import { LOG_FORMATS } from "./ingest/log-formats";

/** The request and response shapes of the domains and tracking endpoints (routes, OpenAPI and MCP share them). */

const hostname = z
  .string()
  .min(1)
  .max(253)
  .refine((v) => normalizeHostname(v) !== null, "Not a valid hostname (like example.com).")
  .describe("A hostname such as example.com");

export const CITATIONS_DAYS = { min: 1, max: 90, default: 30 } as const;
export const CITATIONS_LIMIT = { min: 1, max: 200, default: 50 } as const;
/** Unreadable lines of an uploaded log reported one by one (the rest only counted). */
export const LOG_REJECTED_REPORTED = 100;

export const trackingStatsQuery = z.object({
  domain: hostname.describe("A domain registered on the account"),
});

export const logsIngestQuery = z.object({
  domain: hostname.describe("The registered domain the log belongs to"),
  format: z
    .enum(LOG_FORMATS)
    .default("auto")
    .describe(
      "The log's format: combined (also common), vhost_combined, nginx_json, cloudflare (Logpush http_requests), alb (AWS Application and Classic Load Balancers), cloudfront (standard or JSON), caddy (JSON access log), traefik (JSON access log), google_cloud (Cloud Logging entries with httpRequest), vercel (a Vercel log drain: JSON array or NDJSON), akamai (Akamai DataStream 2 JSON), iis (W3C extended: IIS, Azure App Service); auto (default) detects it line by line",
    ),
});

export const citationsQuery = z.object({
  domain: hostname.describe("A domain registered on the account"),
  days: queryInt(CITATIONS_DAYS.min, CITATIONS_DAYS.max, CITATIONS_DAYS.default).describe(
    `Look-back window in UTC days, today included (default ${CITATIONS_DAYS.default}, max ${CITATIONS_DAYS.max})`,
  ),
  limit: queryInt(CITATIONS_LIMIT.min, CITATIONS_LIMIT.max, CITATIONS_LIMIT.default).describe(
    `Most recent citations listed (default ${CITATIONS_LIMIT.default}, max ${CITATIONS_LIMIT.max})`,
  ),
});

const count = z.number().int().min(0);

export const trackingStatsResult = z.object({
  domain: z.string(),
  totalVisits: count.describe("Bot visits recorded for the domain (human visits are not counted)"),
  uniqueBots: count,
  aiBotVisits: count,
  visitsLast30Days: count.describe("Bot visits in the last 30 UTC days, today included"),
  topBots: z
    .array(
      z.object({
        name: z.string(),
        count,
        isAIBot: z.boolean(),
        verification: z
          .object({
            verified: count.describe(
              "Proven: a valid Web Bot Auth signature of the bot's operator, an address the operator publishes, or its reverse DNS",
            ),
            unverified: count.describe(
              "Cannot be checked: no signature, the operator publishes no addresses, or none was logged",
            ),
            spoofed: count.describe(
              "Disproved: a failing signature, or an address outside the ranges the bot's operator publishes",
            ),
            verifiedBy: z
              .object({ signature: count, ip: count, rdns: count })
              .describe(
                "Of verified, by the method that decided (visits verified before methods were recorded are in none)",
              ),
          })
          .describe("The bot's visits (of count) by whether they prove the claimed identity"),
      }),
    )
    .max(10),
  topPages: z.array(z.object({ url: z.string().describe("A path"), count })).max(10),
});

export const citationsResult = z.object({
  domain: z.string(),
  periodDays: z.number().int(),
  total: count,
  byBot: z.array(
    z.object({
      bot: z.string().describe("The AI engine or assistant (ChatGPT, Copilot, Meta AI, …)"),
      count,
    }),
  ),
  citations: z.array(
    z.object({
      bot: z.string().describe("The AI engine or assistant"),
      path: z.string(),
      timestamp: z.string().describe("ISO 8601 UTC"),
      verification: z
        .enum(["verified", "spoofed", "unverified"])
        .describe(
          "For an assistant's fetch, whether it is proven to be the assistant; a visitor the engine referred is unverified",
        ),
      verificationMethod: z
        .enum(["signature", "ip", "rdns"])
        .nullable()
        .describe("What decided: a Web Bot Auth signature, the operator's IP ranges, or reverse DNS"),
    }),
  ),
});

export const domainInput = z.strictObject({ domain: hostname });

export const domainResult = z.object({
  domain: z.string(),
  verified: z.boolean(),
  verifiedAt: z.string().nullable(),
  verificationMethod: z.enum(["dns_txt", "file"]).nullable(),
  createdAt: z.string(),
  verification: z.object({
    dnsTxt: z.object({ name: z.string(), value: z.string() }),
    file: z.object({ url: z.string(), content: z.string() }),
  }),
});

export const domainListResult = z.object({ domains: z.array(domainResult) });

export const domainDeleteResult = z.object({ domain: z.string(), deleted: z.literal(true) });

export const domainVerifyResult = domainResult.extend({
  checks: z.array(z.object({ method: z.enum(["dns_txt", "file"]), ok: z.boolean(), detail: z.string() })),
});

export const eventsIngestResult = z.object({
  received: count,
  accepted: count.describe("New visits recorded"),
  duplicates: count.describe("Already recorded (same id, or same fields): not counted again"),
  skipped: count.describe("Valid human visits not referred by an AI engine: not stored"),
  rejected: z
    .array(
      z.object({
        index: z.number().int(),
        errors: z.array(z.object({ field: z.string(), message: z.string() })),
      }),
    )
    .max(MAX_EVENTS_PER_BATCH),
});

export const logsIngestResult = z.object({
  domain: z.string(),
  lines: count.describe("Non-blank lines read"),
  accepted: count,
  duplicates: count,
  skipped: count.describe(
    'Lines read but not stored: human visits not referred by an AI engine, and "-" request lines (no request)',
  ),
  rejectedCount: count,
  rejected: z
    .array(z.object({ line: z.number().int(), reason: z.string() }))
    .max(LOG_REJECTED_REPORTED)
    .describe(`The first ${LOG_REJECTED_REPORTED} unreadable lines`),
});

export type TrackingStats = z.infer<typeof trackingStatsResult>;
export type CitationsReport = z.infer<typeof citationsResult>;
export type EventsIngestResult = z.infer<typeof eventsIngestResult>;
export type LogsIngestResult = z.infer<typeof logsIngestResult>;
