import type { EngineAnswer } from "@/lib/providers/engine-types";
import { type BrandEntity, collectEntities, extractMentionSentences, findMentions } from "./mentions";
import type { ResolvedSource } from "./resolve-sources";
import type { EngineResult } from "./schemas";
import { classifySentiment } from "./sentiment";

export interface AnswerTarget {
  /** Registrable domain checked. */
  domain: string;
  /** The site's own name when its home page gave one. */
  siteName: string | null;
  /** Competitors' registrable domains. */
  competitors: readonly string[];
}

export interface AnswerAnalysis {
  entry: EngineResult;
  /** The answer's sentences that mention the domain, as written, and with every brand name masked. */
  mentionSentences: { raw: string[]; masked: string[] };
  mentions: { domain: string; text: string; position: number; cited: boolean }[];
  competitors: { domain: string; mentioned: boolean; mentionPosition: number; cited: boolean }[];
}

/**
 * Citation, mention position and tone of the domain (and its competitors) in one engine's answer. `sources` are
 * the cited sources resolved; `retrieved` the retrieved ones (kept apart: a page read is not a citation). The
 * tone here is the lexicon's (`sentimentDetail.method: "lexicon"`); run-checks may replace it with a model's.
 */
export function analyzeAnswer(
  answer: EngineAnswer,
  sources: readonly ResolvedSource[],
  target: AnswerTarget,
  retrieved: readonly ResolvedSource[] = [],
): AnswerAnalysis {
  const citedDomains = new Set(sources.map((s) => s.domain).filter((d): d is string => d !== null));
  const self: BrandEntity = { domain: target.domain, names: target.siteName ? [target.siteName] : [] };
  const entities = collectEntities(self, target.competitors, [...citedDomains]);
  const analysis = findMentions(answer.answer, entities);
  const positionOf = new Map(analysis.mentions.map((m) => [m.domain, m.position]));

  const citedUrls = unique(sources.filter((s) => s.domain === target.domain).map((s) => s.url));
  const mentionPosition = positionOf.get(target.domain) ?? 0;
  const masked =
    mentionPosition > 0
      ? extractMentionSentences(answer.answer, analysis, target.domain, { mask: "distinct" })
      : [];
  const raw =
    mentionPosition > 0
      ? extractMentionSentences(answer.answer, analysis, target.domain, { mask: "none" })
      : [];
  const sentiment = mentionPosition > 0 ? classifySentiment(masked) : "neutral";

  return {
    entry: {
      engine: answer.engine,
      cited: citedUrls.length > 0,
      citedUrls,
      mentionPosition,
      sentiment,
      ...(mentionPosition > 0 ? { sentimentDetail: { label: sentiment, method: "lexicon" as const } } : {}),
      answer: answer.answer,
      sources: sources.map((s) => ({ url: s.url, title: s.title, domain: s.domain })),
      retrieved: retrieved.map((s) => ({ url: s.url, title: s.title, domain: s.domain })),
      queries: [...answer.queries],
      model: answer.model,
    },
    mentionSentences: { raw, masked },
    mentions: analysis.mentions.map((m) => ({ ...m, cited: citedDomains.has(m.domain) })),
    competitors: target.competitors
      .filter((c) => c !== target.domain)
      .map((c) => ({
        domain: c,
        mentioned: positionOf.has(c),
        mentionPosition: positionOf.get(c) ?? 0,
        cited: citedDomains.has(c),
      })),
  };
}

function unique<T>(list: T[]): T[] {
  return [...new Set(list)];
}
