import { z } from "zod";
import { httpUrl } from "../shared-schemas";

export const llmsTxtInput = z.object({ url: httpUrl }).strict();
export type LlmsTxtInput = z.infer<typeof llmsTxtInput>;

const link = z.object({
  title: z.string(),
  url: z.string(),
  /** The page's meta description or first sentence; null when it has neither. */
  notes: z.string().nullable(),
});

export const llmsTxtResult = z.object({
  /** The URL asked for. */
  url: z.string(),
  /** The start page after redirects; the crawl stayed on its host. */
  siteUrl: z.string(),
  /** The generated file, ready to serve at /llms.txt. */
  llmsTxt: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  sections: z.array(z.object({ title: z.string(), links: z.array(link) })),
  /** HTML pages read. */
  pagesCrawled: z.number().int(),
  /** URLs listed in the file, in file order. */
  pagesUsed: z.array(z.string()),
  /** Where the pages came from: the site's sitemaps, or links followed from the start page. */
  discovery: z.enum(["sitemap", "links"]),
  /** How the text was written: taken from the site's own titles and descriptions. */
  source: z.literal("extractive"),
  warnings: z.array(z.string()),
});
export type LlmsTxtResult = z.infer<typeof llmsTxtResult>;
