import { parsePage } from "@/lib/analysis/page";
import { analyzeStructuredData } from "@/lib/analysis/structured-data/analyze";
import { fetchHtmlPage } from "../audits/run-audit";
import { ToolError, type ToolRunner } from "../types";
import { extractFaqPairs } from "./extract-pairs";
import {
  type FaqGeneratorInput,
  type FaqGeneratorResult,
  type FaqPageJsonLd,
  type FaqPair,
  MAX_PAIRS,
  MIN_PAIRS,
} from "./schema";

export function buildFaqJsonLd(pairs: readonly FaqPair[]): FaqPageJsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: pairs.map((p) => ({
      "@type": "Question",
      name: p.question,
      acceptedAnswer: { "@type": "Answer", text: p.answer },
    })),
  };
}

/**
 * The JSON-LD inside a script element. Every "<" is written as \u003c (still valid JSON), so page text
 * containing "</script>" or "<!--" cannot end or confuse the element.
 */
export function renderJsonLdScript(jsonLd: unknown): string {
  const json = JSON.stringify(jsonLd, null, 2).replace(/</g, "\\u003c");
  return `<script type="application/ld+json">\n${json}\n</script>`;
}

export const runner: ToolRunner<FaqGeneratorInput, FaqGeneratorResult> = {
  async run(input, ctx) {
    const res = await fetchHtmlPage(input.url, ctx);
    const page = parsePage({ url: res.finalUrl, html: res.text(), headers: res.headers });
    const found = extractFaqPairs(page, analyzeStructuredData(page));
    if (found.length < MIN_PAIRS) {
      throw new ToolError(
        "INSUFFICIENT_CONTENT",
        `The page holds ${found.length} question/answer pair${found.length === 1 ? "" : "s"} we can ground in its own text; ${MIN_PAIRS} are needed. Add FAQ sections, question headings with direct answers, or definitions, then try again.`,
      );
    }
    const pairs = found.slice(0, MAX_PAIRS);
    const jsonLd = buildFaqJsonLd(pairs);
    return {
      url: input.url,
      finalUrl: res.finalUrl,
      count: pairs.length,
      pairs,
      jsonLd,
      html: renderJsonLdScript(jsonLd),
    };
  },
};
