import { z } from "zod";

/** DataForSEO Backlinks figures as results carry them: plain zod, so tool definitions and the dashboard can read the shape. */
export const providerBacklinks = z.object({
  /** DataForSEO's own 0–1000 rank of the target. */
  rank: z.number().nullable(),
  backlinks: z.number().int().nullable(),
  dofollowBacklinks: z.number().int().nullable(),
  nofollowBacklinks: z.number().int().nullable(),
  referringDomains: z.number().int().nullable(),
  referringMainDomains: z.number().int().nullable(),
  referringPages: z.number().int().nullable(),
  topAnchors: z.array(
    z.object({
      anchor: z.string(),
      backlinks: z.number().int(),
      referringDomains: z.number().int().nullable(),
    }),
  ),
  topReferringDomains: z.array(
    z.object({ domain: z.string(), rank: z.number().nullable(), backlinks: z.number().int().nullable() }),
  ),
  /** New and lost links per month, oldest first. */
  newLost: z.array(
    z.object({
      date: z.string(),
      newBacklinks: z.number().int(),
      lostBacklinks: z.number().int(),
      newReferringDomains: z.number().int(),
      lostReferringDomains: z.number().int(),
    }),
  ),
});
export type ProviderBacklinks = z.infer<typeof providerBacklinks>;
