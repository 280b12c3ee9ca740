import winkSentiment from "wink-sentiment";
import type { Sentiment } from "./schemas";

export type { Sentiment };

/** Named in every result so a customer knows how the tone was judged. */
export const SENTIMENT_METHOD =
  "wink-sentiment (AFINN-165 lexicon with negation handling), over the sentences that mention the brand";

/**
 * A sentence counts as positive or negative when its normalised score (the mean AFINN value of its scored
 * words, −5..+5, damped for long sentences) reaches this margin. On the labelled fixture
 * (test/fixtures/brand-sentiment.ts) every margin from 0.25 to 1 agrees on 62 of 66 sentences; 1 is the
 * strictest of them, so a faint word in a long factual sentence stays neutral.
 */
export const SENTIMENT_MARGIN = 1;

export function scoreSentence(sentence: string): number {
  return winkSentiment(sentence).normalizedScore;
}

export function labelScore(score: number): Sentiment {
  if (score >= SENTIMENT_MARGIN) return "positive";
  if (score <= -SENTIMENT_MARGIN) return "negative";
  return "neutral";
}

/** The tone of the sentences that mention a brand: the mean of their scores, labelled; neutral when none. */
export function classifySentiment(sentences: readonly string[]): Sentiment {
  if (sentences.length === 0) return "neutral";
  const total = sentences.reduce((sum, s) => sum + scoreSentence(s), 0);
  return labelScore(total / sentences.length);
}
