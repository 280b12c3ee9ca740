import { findDomainLabel, findRegistrableDomain } from "@/lib/ai-visibility/domains";
import { collectEntities, extractMentionSentences, findMentions } from "@/lib/ai-visibility/mentions";
import type { ResolvedSource } from "@/lib/ai-visibility/resolve-sources";
import type { MonitorCompetitorMention, MonitorJudgeInput } from "@/lib/db/schema";
import type { EngineAnswer } from "@/lib/providers/engine-types";

export interface AnalysedAnswer {
  mentioned: boolean;
  position: number | null;
  sentiment: "positive" | "neutral" | "negative" | null;
  sentimentMethod: string | null;
  /** The sentences the run's sentiment judge is to label (null when the brand is not mentioned). */
  judgeInput: MonitorJudgeInput | null;
  cited: string[];
  retrieved: string[];
  queries: string[];
  citedDomains: string[];
  ownCited: boolean;
  competitors: MonitorCompetitorMention[];
}

const unique = <T>(list: T[]) => [...new Set(list)];

/**
 * Reads one answer for the monitored brand: mentioned and where (1-based among every brand named), the sentences
 * that name it (kept for the run's sentiment judge, which labels the run's answers together: lib/monitors/judge.ts),
 * the URLs cited and retrieved kept apart, the engine's searches, and each competitor's mention and citation.
 * The sentiment stays null until the judge has labelled the answer.
 */
export function analyseMonitoredAnswer(
  answer: EngineAnswer,
  cited: readonly ResolvedSource[],
  retrieved: readonly ResolvedSource[],
  target: { domain: string; brandNames: readonly string[]; competitors: readonly string[] },
): AnalysedAnswer {
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
  const judgeInput =
    position === null
      ? null
      : {
          brand: target.brandNames[0] ?? findDomainLabel(domain) ?? domain,
          sentences: extractMentionSentences(answer.answer, analysis, domain),
        };
  return {
    mentioned: position !== null,
    position,
    sentiment: null,
    sentimentMethod: null,
    judgeInput,
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
