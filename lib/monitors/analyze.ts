import { findDomainLabel, findRegistrableDomain } from "@/lib/ai-visibility/domains";
import { collectEntities, extractMentionSentences, findMentions } from "@/lib/ai-visibility/mentions";
import type { ResolvedSource } from "@/lib/ai-visibility/resolve-sources";
import { judgeBrandSentiment } from "@/lib/ai-visibility/sentiment-judge";
import type { MonitorCompetitorMention } from "@/lib/db/schema";
import type { EngineAnswer, Env } from "@/lib/providers/engine-types";

export interface AnalysedAnswer {
  mentioned: boolean;
  position: number | null;
  sentiment: "positive" | "neutral" | "negative" | null;
  sentimentMethod: string | null;
  cited: string[];
  retrieved: string[];
  queries: string[];
  citedDomains: string[];
  ownCited: boolean;
  competitors: MonitorCompetitorMention[];
}

const unique = <T>(list: T[]) => [...new Set(list)];

/**
 * Reads one answer for the monitored brand: mentioned and where (1-based among every brand named), the tone of
 * the sentences that name it (the sentiment judge, its method kept), the URLs cited and retrieved kept apart, the
 * engine's searches, and each competitor's mention and citation.
 */
export async function analyseMonitoredAnswer(
  answer: EngineAnswer,
  cited: readonly ResolvedSource[],
  retrieved: readonly ResolvedSource[],
  target: { domain: string; brandNames: readonly string[]; competitors: readonly string[] },
  ctx: { env?: Env; signal?: AbortSignal; beforeJudge?: () => Promise<void> },
): Promise<AnalysedAnswer> {
  const domain = findRegistrableDomain(target.domain) ?? target.domain;
  const citedDomains = unique(cited.map((s) => s.domain).filter((d): d is string => d !== null));
  const entities = collectEntities(
    { domain, names: [...target.brandNames] },
    target.competitors,
    citedDomains,
  );
  const analysis = findMentions(answer.answer, entities);
  const positionOf = new Map(analysis.mentions.map((m) => [m.domain, m.position]));
  const position = positionOf.get(domain) ?? null;
  let sentiment: AnalysedAnswer["sentiment"] = null;
  let sentimentMethod: string | null = null;
  if (position !== null) {
    await ctx.beforeJudge?.();
    const verdict = await judgeBrandSentiment(
      {
        sentences: extractMentionSentences(answer.answer, analysis, domain),
        brand: target.brandNames[0] ?? findDomainLabel(domain) ?? domain,
      },
      ctx,
    );
    sentiment = verdict.sentiment;
    sentimentMethod = verdict.model ? `${verdict.method}:${verdict.model}` : verdict.method;
  }
  return {
    mentioned: position !== null,
    position,
    sentiment,
    sentimentMethod,
    cited: unique(cited.map((s) => s.url)),
    retrieved: unique(retrieved.map((s) => s.url)),
    queries: unique((answer.queries ?? []).map((q) => q.trim()).filter(Boolean)),
    citedDomains,
    ownCited: citedDomains.includes(domain),
    competitors: target.competitors
      .filter((c) => c !== domain)
      .map((c) => ({
        domain: c,
        mentioned: positionOf.has(c),
        position: positionOf.get(c) ?? 0,
        cited: citedDomains.includes(c),
      })),
  };
}
