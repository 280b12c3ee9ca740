import { z } from "zod";
import { aiAccessResult } from "@/lib/analysis/ai-access/schema";
import { GEO_SIGNALS } from "@/lib/analysis/geo";
import { GRADES } from "@/lib/analysis/security-headers";
import { checkSchema } from "../shared/audit-schema";
import { httpUrl } from "../shared-schemas";

export const seoAeoGeoInput = z.object({ url: httpUrl }).strict();
export type SeoAeoGeoInput = z.infer<typeof seoAeoGeoInput>;

const score = z.number().int().min(0).max(100);
const signalIds = Object.keys(GEO_SIGNALS) as [keyof typeof GEO_SIGNALS, ...(keyof typeof GEO_SIGNALS)[]];

export const seoAeoGeoResult = z.object({
  /** The request that produced this result, to run it again as it was. */
  input: seoAeoGeoInput,
  url: z.string(),
  finalUrl: z.string(),
  fetchedAt: z.iso.datetime(),
  /** 40% SEO + 30% AEO + 30% GEO. */
  overall: score,
  weights: z.object({ seo: z.number(), aeo: z.number(), geo: z.number() }),
  seo: z.object({
    /** The `audits` tool's score for the same page. */
    score,
    scoreCappedBy: z.array(z.string()),
    securityGrade: z.enum(GRADES),
    summary: z.object({ pass: z.number().int(), warn: z.number().int(), fail: z.number().int() }),
    /** The checks that matter most for ranking, always present, in a fixed order. */
    keyChecks: z.array(checkSchema),
    /** Every audit check that did not pass. */
    issues: z.array(checkSchema),
  }),
  aeo: z.object({
    score,
    checks: z.array(checkSchema),
    /** Question-shaped headings and the length of the answer right under each. */
    questions: z.array(
      z.object({ question: z.string(), answerWords: z.number().int(), concise: z.boolean() }),
    ),
  }),
  geo: z.object({
    score,
    signals: z.array(
      z.object({
        id: z.enum(signalIds),
        /** The GEO paper's method (Aggarwal et al., KDD 2024) the signal measures. */
        method: z.string(),
        score,
        weight: z.number(),
        recommendation: z.string(),
        evidence: z.array(z.string()),
      }),
    ),
  }),
  /** Which AI operators may read the site and what decides it (the ai-access tool's result). */
  aiAccess: aiAccessResult,
});
export type SeoAeoGeoResult = z.infer<typeof seoAeoGeoResult>;
