import { CrawlBlockedError, crawlSite } from "@/lib/crawl/crawl-site";
import { toToolError } from "@/lib/fetch/errors";
import { parseLlmsTxt, renderLlmsTxt } from "@/lib/seo/llms-txt";
import { ToolError, type ToolRunner } from "../types";
import { buildLlmsTxt } from "./build-llms-txt";
import type { LlmsTxtInput, LlmsTxtResult } from "./schema";

const CRAWL_TIME_LIMIT_MS = 60_000;

export const runner: ToolRunner<LlmsTxtInput, LlmsTxtResult> = {
  async run(input, ctx) {
    const crawl = await crawlSite(ctx.fetch, input.url, {
      signal: ctx.signal,
      timeLimitMs: CRAWL_TIME_LIMIT_MS,
    }).catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      if (err instanceof CrawlBlockedError) throw new ToolError("ROBOTS_DISALLOWED", err.message);
      throw toToolError(err);
    });
    const start = crawl.pages.find((p) => p.url === input.url);
    const status = start?.status ?? crawl.skipped.find((s) => s.url === input.url)?.status ?? 0;
    if (status < 200 || status >= 300) {
      throw new ToolError(
        "HTTP_ERROR",
        `${crawl.siteUrl} answered HTTP ${status}; the page must return a 2xx status.`,
      );
    }
    if (!start) {
      throw new ToolError(
        "NOT_HTML",
        `${crawl.siteUrl} did not answer with an HTML page; give the site's homepage.`,
      );
    }

    const draft = buildLlmsTxt(crawl);
    const text = renderLlmsTxt(draft.model);
    const check = parseLlmsTxt(text);
    // Our own renderer must produce a valid file; anything else is a bug, not the customer's problem.
    if (!check.valid) throw new Error(`generated llms.txt is invalid: ${JSON.stringify(check.issues)}`);
    return {
      url: input.url,
      siteUrl: crawl.siteUrl,
      llmsTxt: text,
      title: draft.model.title,
      summary: draft.model.summary ?? null,
      sections: draft.sections,
      pagesCrawled: crawl.pages.length,
      pagesUsed: draft.pagesUsed,
      discovery: crawl.discovery,
      source: "extractive",
      warnings: draft.warnings,
    };
  },
};
