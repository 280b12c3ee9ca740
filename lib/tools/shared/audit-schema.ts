import { z } from "zod";
import { aiAccessResult } from "@/lib/analysis/ai-access/schema";
import { SEVERITIES } from "@/lib/analysis/check-catalog";
import { GRADES } from "@/lib/analysis/security-headers";
import { httpUrl } from "../shared-schemas";

export const auditInput = z.object({ url: httpUrl }).strict();
export type AuditInput = z.infer<typeof auditInput>;

const CHECK_CATEGORIES = [
  "http",
  "crawl",
  "security",
  "meta",
  "headings",
  "structured-data",
  "content",
  "ai-access",
  "aeo",
] as const;

export const checkSchema = z.object({
  /** Stable identifier, e.g. "meta.description"; the part before the dot is the category. */
  id: z.string(),
  category: z.enum(CHECK_CATEGORIES),
  status: z.enum(["pass", "warn", "fail"]),
  /** What was found and what to do about it. */
  message: z.string(),
  evidence: z.array(z.string()),
  /** The check in words (never its code alone): a title that reads right whatever the status. */
  title: z.string(),
  /** How serious it is when the check does not pass. */
  severity: z.enum(SEVERITIES),
  /** What the check looks at and why it matters. */
  meaning: z.string(),
  /** What to do when it does not pass. */
  fix: z.string(),
});
export type CheckResult = z.infer<typeof checkSchema>;

const counts = z.object({ pass: z.number().int(), warn: z.number().int(), fail: z.number().int() });

export const auditResult = z.object({
  /** The request that produced this result, to run it again as it was. */
  input: auditInput,
  /** The URL asked for. */
  url: z.string(),
  /** The URL that answered after redirects; every check is about this page. */
  finalUrl: z.string(),
  fetchedAt: z.iso.datetime(),
  /** Weighted 0–100 (see lib/tools/audits/SCORING.md). */
  score: z.number().int().min(0).max(100),
  /** Set when an indexability blocker (noindex, search crawlers blocked) capped the score. */
  scoreCappedBy: z.array(z.string()),
  categories: z.array(
    z.object({
      id: z.enum(CHECK_CATEGORIES),
      weight: z.number(),
      score: z.number().int().min(0).max(100),
      counts,
    }),
  ),
  summary: counts,
  http: z.object({
    status: z.number().int(),
    redirects: z.array(z.object({ url: z.string(), status: z.number().int(), location: z.string() })),
    elapsedMs: z.number().int(),
    contentType: z.string().nullable(),
    bytes: z.number().int(),
  }),
  security: z.object({
    /** MDN HTTP Observatory score (its v1.6.3 rules); above 100 with bonuses. */
    score: z.number().int().min(0),
    grade: z.enum(GRADES),
    tests: z.array(
      checkSchema.extend({
        scoreModifier: z.number().int(),
        /** The Observatory's result name, e.g. "csp-implemented-with-no-unsafe"; null for Permissions-Policy (ours, unscored). */
        result: z.string().nullable(),
      }),
    ),
    /** Observatory tests a single fetched response cannot show; they add 0 to the score. */
    notEvaluated: z.array(z.object({ test: z.string(), reason: z.string() })),
  }),
  robots: z.object({
    url: z.string(),
    status: z.number().int().nullable(),
    /** rules: the file decides; allow-all: no file (4xx); disallow-all: unreachable (5xx, network). */
    mode: z.enum(["rules", "allow-all", "disallow-all"]),
    sitemaps: z.array(z.string()),
    bots: z.array(
      z.object({
        token: z.string(),
        operator: z.string(),
        kind: z.enum(["ai", "search"]),
        purpose: z.string(),
        allowed: z.boolean(),
        rule: z.object({ allow: z.boolean(), pattern: z.string(), line: z.number().int() }).nullable(),
      }),
    ),
  }),
  sitemaps: z.object({
    sources: z.array(
      z.object({
        url: z.string(),
        from: z.enum(["robots", "default", "index"]),
        status: z.number().int().nullable(),
        kind: z.enum(["urlset", "sitemapindex", "rss", "atom", "text", "invalid", "unreachable"]),
        urlCount: z.number().int(),
      }),
    ),
    urlCount: z.number().int(),
    /** The page (or its canonical URL) appears in a sitemap. */
    pageListed: z.boolean(),
    truncated: z.boolean(),
    issues: z.array(
      z.object({ sitemap: z.string(), severity: z.enum(["error", "warning"]), message: z.string() }),
    ),
  }),
  llmsTxt: z.object({
    url: z.string(),
    status: z.number().int().nullable(),
    found: z.boolean(),
    valid: z.boolean(),
    title: z.string().nullable(),
    links: z.number().int(),
    issues: z.array(
      z.object({ line: z.number().int(), severity: z.enum(["error", "warning"]), message: z.string() }),
    ),
  }),
  meta: z.object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    canonical: z.string().nullable(),
    lang: z.string().nullable(),
    hreflang: z.array(z.object({ lang: z.string(), href: z.string(), source: z.enum(["html", "header"]) })),
    robots: z.object({ noindex: z.boolean(), nofollow: z.boolean(), directives: z.array(z.string()) }),
  }),
  headings: z.object({
    outline: z.array(z.object({ level: z.number().int().min(1).max(6), text: z.string() })),
  }),
  structuredData: z.object({
    jsonLdBlocks: z.number().int(),
    types: z.array(z.string()),
    items: z.array(
      z.object({
        source: z.enum(["json-ld", "microdata"]),
        type: z.string(),
        ruleType: z.string(),
        path: z.string(),
        nested: z.boolean(),
        missingRequired: z.array(z.string()),
        missingRecommended: z.array(z.string()),
        errors: z.array(z.string()),
      }),
    ),
    malformed: z.array(z.object({ index: z.number().int(), error: z.string(), snippet: z.string() })),
  }),
  content: z.object({
    wordCount: z.number().int(),
    readability: z.object({
      words: z.number().int(),
      sentences: z.number().int(),
      syllables: z.number().int(),
      fleschReadingEase: z.number(),
      gradeLevel: z.number(),
      averageSentenceLength: z.number(),
    }),
    images: z.object({ total: z.number().int(), withoutAlt: z.number().int(), decorative: z.number().int() }),
    links: z.object({ internal: z.number().int(), external: z.number().int(), nofollow: z.number().int() }),
  }),
  /** Every check, in a stable order: http, crawl, ai-access, security, meta, headings, structured data, content. */
  checks: z.array(checkSchema),
  /** Which AI operators may read the site and what decides it (the ai-access tool's result). */
  aiAccess: aiAccessResult,
});
export type AuditResult = z.infer<typeof auditResult>;
