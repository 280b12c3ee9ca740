import type { EnvRecord } from "@/lib/providers/engine-types";
import { classifySentiment } from "./sentiment";

export interface SentimentVerdict {
  sentiment: "positive" | "neutral" | "negative";
  method: "model" | "lexicon";
  model?: string;
}

/**
 * The tone of the sentences about a brand. This version judges with the lexicon (wink-sentiment, AFINN-165) and
 * says so in `method`; the model judge takes the same input and context.
 */
export async function judgeBrandSentiment(
  input: { sentences: string[]; brand: string },
  _ctx: { env?: EnvRecord; signal?: AbortSignal },
): Promise<SentimentVerdict> {
  return { sentiment: classifySentiment(input.sentences), method: "lexicon" };
}
