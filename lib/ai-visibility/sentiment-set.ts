import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { SENTIMENT_LABELS, type SentimentLabel } from "./schemas";

/**
 * The labelled sentiment set (sentiment-set.jsonl): sentences about brands in the style of AI answers, each
 * with the tone a careful reader gives it towards the named brand. `tags` flag comparative sentences, negation
 * and sarcasm (labelled with the tone the sarcasm intends). Used by the lexicon's test and
 * `npm run eval:sentiment`.
 */
const labelledSentence = z.object({
  brand: z.string().min(1),
  sentence: z.string().min(1),
  label: z.enum(SENTIMENT_LABELS),
  tags: z.array(z.enum(["comparative", "negation", "sarcasm"])).optional(),
});
export type LabelledBrandSentence = z.infer<typeof labelledSentence>;

const SENTIMENT_SET_PATH = path.join(process.cwd(), "lib/ai-visibility/sentiment-set.jsonl");

export function loadSentimentSet(file = SENTIMENT_SET_PATH): LabelledBrandSentence[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      const parsed = labelledSentence.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`sentiment set line ${i + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

export interface Agreement {
  n: number;
  agreed: number;
  rate: number;
}

/** Agreement overall and per expected label; `counted` maps both sides before comparing (e.g. mixed → neutral). */
export function measureAgreement(
  pairs: readonly { expected: SentimentLabel; got: SentimentLabel }[],
  counted: (label: SentimentLabel) => SentimentLabel = (l) => l,
): { overall: Agreement; byLabel: Record<SentimentLabel, Agreement> } {
  const tally = (list: typeof pairs): Agreement => {
    const agreed = list.filter((p) => counted(p.expected) === counted(p.got)).length;
    return { n: list.length, agreed, rate: list.length === 0 ? 0 : agreed / list.length };
  };
  const byLabel = Object.fromEntries(
    SENTIMENT_LABELS.map((label) => [label, tally(pairs.filter((p) => p.expected === label))]),
  ) as Record<SentimentLabel, Agreement>;
  return { overall: tally(pairs), byLabel };
}
