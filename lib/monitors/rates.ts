import { compareProportions, wilson } from "@/lib/stats/proportions";
import type { RateSet } from "./schemas";

/** What the rates need of one succeeded answer. */
export interface AnswerFacts {
  mentioned: boolean;
  position: number | null;
  ownCited: boolean;
  sentiment: "positive" | "neutral" | "negative" | null;
  competitors: { domain: string; mentioned: boolean; position: number; cited: boolean }[];
}

export interface Counts {
  answers: number;
  mentioned: number;
  cited: number;
  /** Mentions of the brand and of every tracked competitor, one per brand per answer. */
  brandMentions: number;
  trackedMentions: number;
  positionSum: number;
  positionN: number;
  sentiment: { positive: number; neutral: number; negative: number };
}

/** Counts for the monitored brand, or for one competitor (`competitor` = its domain). */
export function countAnswers(answers: readonly AnswerFacts[], competitor?: string): Counts {
  const c: Counts = {
    answers: 0,
    mentioned: 0,
    cited: 0,
    brandMentions: 0,
    trackedMentions: 0,
    positionSum: 0,
    positionN: 0,
    sentiment: { positive: 0, neutral: 0, negative: 0 },
  };
  for (const a of answers) {
    c.answers++;
    const own = { mentioned: a.mentioned, position: a.position ?? 0, cited: a.ownCited };
    const subject = competitor ? a.competitors.find((x) => x.domain === competitor) : own;
    const tracked = (own.mentioned ? 1 : 0) + a.competitors.filter((x) => x.mentioned).length;
    c.trackedMentions += tracked;
    if (!subject) continue;
    if (subject.mentioned) {
      c.mentioned++;
      c.brandMentions++;
      if (subject.position > 0) {
        c.positionSum += subject.position;
        c.positionN++;
      }
    }
    if (subject.cited) c.cited++;
    if (!competitor && a.mentioned && a.sentiment) c.sentiment[a.sentiment]++;
  }
  return c;
}

/** The rates of a set of answers, each with n and its 95% interval; `previous` adds the comparison. */
export function rateSet(current: Counts, previous?: Counts): RateSet {
  const rates = {
    answers: current.answers,
    mentionRate: wilson(current.mentioned, current.answers),
    citationRate: wilson(current.cited, current.answers),
    shareOfVoice: wilson(current.brandMentions, current.trackedMentions),
    averagePosition: {
      value: current.positionN ? Math.round((current.positionSum / current.positionN) * 100) / 100 : null,
      n: current.positionN,
    },
    sentiment: current.sentiment,
  };
  if (!previous) return rates;
  const change = (k1: number, n1: number, k2: number, n2: number) => {
    const c = compareProportions(k1, n1, k2, n2);
    return { delta: c.delta, significant: c.significant };
  };
  return {
    ...rates,
    previous: {
      mentionRate: wilson(previous.mentioned, previous.answers),
      citationRate: wilson(previous.cited, previous.answers),
      shareOfVoice: wilson(previous.brandMentions, previous.trackedMentions),
    },
    change: {
      mentionRate: change(previous.mentioned, previous.answers, current.mentioned, current.answers),
      citationRate: change(previous.cited, previous.answers, current.cited, current.answers),
      shareOfVoice: change(
        previous.brandMentions,
        previous.trackedMentions,
        current.brandMentions,
        current.trackedMentions,
      ),
    },
  };
}
