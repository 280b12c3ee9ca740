import { parsePage } from "@/lib/analysis/page";
import { analyzeStructuredData } from "@/lib/analysis/structured-data/analyze";
import { EngineError } from "@/lib/providers/engine-retry";
import { pickJsonEngine } from "@/lib/providers/generate-json";
import { fetchHtmlPage } from "../shared/run-audit";
import { ToolError, type ToolRunner } from "../types";
import { deduplicate, extractFaqPairs } from "./extract-pairs";
import { type GroundedOutcome, writeGroundedFaq } from "./grounded";
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
    const extracted = extractFaqPairs(page, analyzeStructuredData(page));
    let generated: GroundedOutcome | null = null;
    let note: string | null = null;
    if (pickJsonEngine(ctx.env)) {
      try {
        generated = await writeGroundedFaq(page, { env: ctx.env, signal: ctx.signal });
      } catch (err) {
        if (ctx.signal.aborted || !(err instanceof EngineError)) throw err;
        note = `The AI engine could not write the FAQ (${err.message}); the pairs below are extracted from the page.`;
      }
    }
    const written: FaqPair[] = (generated?.pairs ?? []).map((p) => ({
      question: p.question,
      answer: p.answer,
      source: "generated",
      supportingSentences: p.supportingSentences,
    }));
    // Generated pairs first; the page's own Q&A tops them up when the engine could ground fewer than needed.
    const found = written.length >= MAX_PAIRS ? written : deduplicate([...written, ...extracted]);
    if (found.length < MIN_PAIRS) {
      throw new ToolError(
        "INSUFFICIENT_CONTENT",
        `The page holds ${found.length} question/answer pair${found.length === 1 ? "" : "s"} we can ground in its own text; ${MIN_PAIRS} are needed. Add FAQ sections, question headings with direct answers, or definitions, then try again.`,
      );
    }
    const pairs = found.slice(0, MAX_PAIRS);
    const jsonLd = buildFaqJsonLd(pairs);
    return {
      method: {
        kind: written.length > 0 ? ("generated" as const) : ("extracted" as const),
        engine: generated && written.length > 0 ? generated.engine : null,
        model: generated && written.length > 0 ? generated.model : null,
        unsupportedDropped: generated?.dropped.length ?? 0,
        note,
      },
      url: input.url,
      finalUrl: res.finalUrl,
      count: pairs.length,
      pairs,
      jsonLd,
      html: renderJsonLdScript(jsonLd),
    };
  },
};
