import { countWords, endsLikeSentence, splitSentences } from "@/lib/analysis/text";

/** Answers aim for the 40–60 words answer engines quote, and never run past a paragraph's worth. */
const ANSWER_WORDS = { min: 6, target: 40, max: 90 } as const;

// Answers that lean on the rest of the page are not self-contained.
const REFERS_ELSEWHERE =
  /^(as (mentioned|noted|shown|described|discussed)|see (above|below)|the (above|following)|above|below|click here)\b|\b(see below|shown below|listed below|as follows)\b/i;

/**
 * Builds an answer from page text: whole sentences in order until about `target` words, never more than
 * `max` (a single longer first sentence is kept only if under 1.5 × max). Returns undefined when nothing
 * usable remains, so the caller drops the pair instead of padding it.
 */
export function composeAnswer(
  texts: readonly string[],
  limits: { target?: number; max?: number } = {},
): string | undefined {
  const target = limits.target ?? ANSWER_WORDS.target;
  const max = limits.max ?? ANSWER_WORDS.max;
  const taken: string[] = [];
  let words = 0;
  for (const sentence of texts.flatMap(splitSentences)) {
    const n = countWords(sentence);
    if (taken.length > 0 && words + n > max) break;
    if (taken.length === 0 && n > max * 1.5) return undefined;
    taken.push(sentence);
    words += n;
    if (words >= target) break;
  }
  // A sentence introducing a list that is not part of the answer leaves it hanging.
  while (taken.length && /:$/.test(taken.at(-1) ?? "")) taken.pop();
  const answer = taken.join(" ").trim();
  if (!answer || countWords(answer) < ANSWER_WORDS.min || !endsLikeSentence(answer)) return undefined;
  if (REFERS_ELSEWHERE.test(answer)) return undefined;
  return answer;
}
