import { z } from "zod";
import { providerBacklinks } from "@/lib/contract/provider-backlinks";

// Client-safe (zod and lib/contract only): the tool definitions and the dashboard read these schemas.

const BACKLINK_SOURCES = ["webgraph", "dataforseo", "both"] as const;

const rank = z.object({
  harmonicCentralityRank: z.number().int(),
  pageRankRank: z.number().int(),
  authorityScore: z.number().int().min(0).max(100),
  level: z.enum(["host", "domain"]),
});

const figures = z.object({
  snapshot: z.string(),
  takenOn: z.string(),
  found: z.boolean(),
  referringDomains: z.number().int().nullable(),
  referringHosts: z.number().int().nullable(),
  rank: rank.nullable(),
});

const webgraphOverviewResult = figures.extend({
  topReferringDomains: z.array(
    z.object({
      domain: z.string(),
      harmonicCentralityRank: z.number().int().nullable(),
      pageRankRank: z.number().int().nullable(),
      authorityScore: z.number().int().nullable(),
    }),
  ),
  history: z.array(figures).optional(),
});

export const backlinksOverviewResult = z.object({
  target: z.string(),
  /** Which data answered: the embedded Common Crawl link graph, DataForSEO Backlinks, or both. */
  source: z.enum(BACKLINK_SOURCES),
  /** From Common Crawl's host- and domain-level web graph; null when no snapshot is imported. */
  webgraph: webgraphOverviewResult.nullable(),
  /** From DataForSEO Backlinks; null when not configured (or, with a web graph answering, when it failed). */
  dataforseo: providerBacklinks.nullable(),
  warnings: z.array(z.string()),
});
export type BacklinksOverviewResult = z.infer<typeof backlinksOverviewResult>;

export const domainAuthorityInput = z
  .object({
    domains: z
      .array(
        z
          .string({ error: "Must be a string." })
          .trim()
          .toLowerCase()
          .min(1, { error: "Must not be empty." })
          .max(253, { error: "Must be at most 253 characters." })
          .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, {
            error: "Must be a domain name such as example.com.",
          }),
        { error: "Must be an array of domain names." },
      )
      .min(1, { error: "Give at least one domain." })
      .max(100, { error: "At most 100 domains." }),
  })
  .strict();
export type DomainAuthorityInput = z.infer<typeof domainAuthorityInput>;

export const domainAuthorityResult = z.object({
  source: z.enum(BACKLINK_SOURCES),
  snapshot: z.object({ name: z.string(), takenOn: z.string(), level: z.enum(["host", "domain"]) }).nullable(),
  domains: z.array(
    z.object({
      domain: z.string(),
      /** Web graph figures (null when no snapshot is imported or the domain is not in it). */
      found: z.boolean(),
      authorityScore: z.number().int().nullable(),
      harmonicCentralityRank: z.number().int().nullable(),
      pageRankRank: z.number().int().nullable(),
      referringDomains: z.number().int().nullable(),
      /** DataForSEO figures, when configured. */
      dataforseo: z
        .object({
          rank: z.number().nullable(),
          referringDomains: z.number().int().nullable(),
          referringMainDomains: z.number().int().nullable(),
        })
        .nullable(),
    }),
  ),
});
export type DomainAuthorityResult = z.infer<typeof domainAuthorityResult>;

/** Credits for a bulk authority read: one per distinct domain. */
export function costDomainAuthority(input: DomainAuthorityInput): number {
  return new Set(input.domains).size;
}
