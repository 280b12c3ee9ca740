// npm run eval:sentiment: the model sentiment judge (the cheapest configured engine's judge model) and the
// lexicon measured against lib/ai-visibility/sentiment-set.jsonl, per label and overall.
import { evaluateSentiment, formatSentimentEval } from "@/lib/ai-visibility/sentiment-eval";

const result = await evaluateSentiment({ env: process.env, concurrency: 4 });
console.log(formatSentimentEval(result));
if (result.model && result.model.judged === 0) process.exitCode = 1;
