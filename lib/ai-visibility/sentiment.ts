import winkSentiment from "wink-sentiment";
import { BRAND_MARKER } from "./mentions";
import type { Sentiment, SentimentLabel } from "./schemas";

export type { Sentiment, SentimentLabel };

/** Named in every result the lexicon judged, so a customer knows how the tone was judged. */
export const SENTIMENT_METHOD =
  "Lexicon (AFINN-165 through wink-sentiment, with a product-review supplement, negation and comparisons), over the sentences that mention the brand";

/**
 * A sentence counts as positive or negative when its score (the mean value of its scored words, −5..+5, damped
 * for long sentences) reaches this margin; a faint word in a long factual sentence stays neutral.
 */
const SENTIMENT_MARGIN = 1;

/**
 * Words of product and service talk that AFINN-165 lacks or scores for another sense. 0 silences a word that
 * describes rather than judges in this setting ("free plan", "supports JSON", "on top of").
 */
const SUPPLEMENT: Record<string, number> = {
  // describing, not judging
  free: 0,
  top: 0,
  creative: 0,
  united: 0,
  support: 0,
  supports: 0,
  accept: 0,
  failure: 0,
  credit: 0,
  hard: 0,
  // praise
  durable: 2,
  trustworthy: 2,
  efficient: 2,
  stylish: 2,
  afford: 1,
  inexpensive: 2,
  intuitive: 2,
  faster: 2,
  easier: 2,
  cheaper: 2,
  outperforms: 2,
  recommended: 2,
  "well-made": 2,
  "go-to": 2,
  standout: 2,
  fast: 1,
  convenient: 2,
  flexible: 2,
  consistent: 1,
  reliably: 2,
  // criticism
  clunky: -2,
  outdated: -2,
  complicated: -2,
  cluttered: -2,
  slow: -2,
  slower: -2,
  buggy: -2,
  bloated: -2,
  overpriced: -2,
  expensive: -1,
  pricey: -1,
  steep: -1,
  nightmare: -3,
  limiting: -2,
  worse: -2,
  scams: -3,
  scam: -3,
  lacks: -1,
  fined: -2,
  outages: -2,
  outage: -2,
  overwhelming: -1,
  overstates: -2,
  confusing: -2,
  criticised: -2,
  criticized: -2,
  complaints: -2,
  insecure: -2,
  annoy: -2,
  frustrates: -2,
};

/** Word pairs and triples scored as one, overriding their words. */
const PHRASES: [string[], number][] = [
  [["hard", "to", "beat"], 3],
  [["hard", "to", "go", "wrong"], 3],
  [["stands", "out"], 2],
  [["built", "to", "last"], 2],
  [["last", "a", "lifetime"], 2],
  [["well", "made"], 2],
  [["ripped", "off"], -3],
  [["hit", "or", "miss"], -1],
  [["top", "pick"], 2],
  [["safe", "bet"], 2],
  [["add", "up"], -1],
];

/** Words that turn the judgement of the next few words around. */
const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "none",
  "nobody",
  "nothing",
  "neither",
  "nor",
  "n't",
  "hardly",
  "barely",
  "rarely",
  "seldom",
  "without",
  "cannot",
  "dont",
  "doesnt",
  "isnt",
  "wont",
  "cant",
]);
/** How many words after a negator it reaches. */
const NEGATION_REACH = 3;
/** Praise and criticism within a contrast make `mixed` when the weaker side is at least this share of the other. */
const MIXED_BALANCE = 0.25;
const CLAUSE_BREAKS = new Set([
  ",",
  ";",
  ":",
  "but",
  "though",
  "although",
  "yet",
  "however",
  "while",
  "whereas",
]);
const CONTRASTS = new Set(["but", "though", "although", "yet", "however", "whereas"]);
const BEATING_VERBS = new Set(["outperforms", "beats", "surpasses", "trounces", "outshines", "outclasses"]);

interface Token {
  value: string;
  score: number;
}

/**
 * Scores one sentence in which the brand under judgement is `thebrand` (or `it`, see extractMentionSentences):
 * AFINN values (through wink-sentiment's tokenizer) amended by the supplement and phrases; a negator flips the
 * next words of its clause; in a comparison where the brand is what is compared against ("better than
 * thebrand", "compared with thebrand", "outperforms thebrand") the judgement is the other's and flips.
 */
function scoreSentenceDetail(sentence: string): {
  score: number;
  positive: number;
  negative: number;
  contrast: boolean;
} {
  const tokens = tokenize(sentence);
  const scores = tokens.map((t) => t.score);
  // Phrases override their words.
  for (let i = 0; i < tokens.length; i++) {
    for (const [words, value] of PHRASES) {
      if (words.every((w, k) => tokens[i + k]?.value === w)) {
        scores[i] = value;
        for (let k = 1; k < words.length; k++) scores[i + k] = 0;
      }
    }
  }
  // Negation: flips scored words up to NEGATION_REACH words ahead, within the clause.
  for (let i = 0; i < tokens.length; i++) {
    if (!NEGATORS.has(tokens[i]!.value)) continue;
    for (let k = i + 1; k < tokens.length && k <= i + NEGATION_REACH; k++) {
      if (CLAUSE_BREAKS.has(tokens[k]!.value)) break;
      scores[k] = -scores[k]!;
    }
  }
  // Comparisons against the brand: the clause's judgement belongs to the other side.
  const isBrand = (v: string | undefined) => v === BRAND_MARKER;
  let clauseStart = 0;
  let contrast = false;
  for (let i = 0; i <= tokens.length; i++) {
    const v = tokens[i]?.value;
    if (v !== undefined && CONTRASTS.has(v)) contrast = true;
    if (v !== undefined && !CLAUSE_BREAKS.has(v)) continue;
    const clause = tokens.slice(clauseStart, i).map((t) => t.value);
    const than = clause.indexOf("than");
    const against =
      (than >= 0 && clause.slice(than + 1, than + 4).some(isBrand)) ||
      clause.some((w, k) => BEATING_VERBS.has(w) && isBrand(clause[k + 1] ?? clause[k + 2])) ||
      clause.some((w, k) => w === "compared" && isBrand(clause[k + 2]));
    if (against) {
      // "compared with thebrand, X offers…" is followed by the clause that judges: flip up to the sentence end.
      const end = clause.includes("compared") ? tokens.length : i;
      for (let k = clauseStart; k < end; k++) scores[k] = -scores[k]!;
      if (end === tokens.length) break;
    }
    clauseStart = i + 1;
  }
  const scored = scores.filter((s) => s !== 0);
  const positive = scored.filter((s) => s > 0).reduce((a, b) => a + b, 0);
  const negative = -scored.filter((s) => s < 0).reduce((a, b) => a + b, 0);
  if (scored.length === 0) return { score: 0, positive, negative, contrast };
  const words = tokens.filter((t) => /\p{L}/u.test(t.value)).length;
  const mean = (positive - negative) / scored.length;
  return { score: mean / Math.sqrt(words > 15 ? words / 15 : 1), positive, negative, contrast };
}

function labelScore(score: number): Sentiment {
  if (score >= SENTIMENT_MARGIN) return "positive";
  if (score <= -SENTIMENT_MARGIN) return "negative";
  return "neutral";
}

/**
 * The finer label of sentences about a brand: praise and criticism of comparable weight across a contrast
 * ("…, but …") or across sentences make `mixed`; otherwise the mean score's label.
 */
function classifySentimentLabel(sentences: readonly string[]): SentimentLabel {
  if (sentences.length === 0) return "neutral";
  const details = sentences.map((s) => scoreSentenceDetail(normalizeMarkers(s)));
  const mean = details.reduce((sum, d) => sum + d.score, 0) / details.length;
  const positive = details.reduce((sum, d) => sum + d.positive, 0);
  const negative = details.reduce((sum, d) => sum + d.negative, 0);
  const contrasted =
    details.some((d) => d.contrast) ||
    (details.some((d) => d.score >= SENTIMENT_MARGIN) && details.some((d) => d.score <= -SENTIMENT_MARGIN));
  const balanced =
    positive > 0 &&
    negative > 0 &&
    Math.min(positive, negative) / Math.max(positive, negative) >= MIXED_BALANCE;
  if (contrasted && balanced) return "mixed";
  return labelScore(mean);
}

/** The tone of the sentences that mention a brand (names masked, see extractMentionSentences); neutral when none. */
export function classifySentiment(sentences: readonly string[]): Sentiment {
  const label = classifySentimentLabel(sentences);
  return label === "mixed" ? "neutral" : label;
}

/** The finer label of sentences about `brand` by the lexicon (its names masked first when given). */
export function classifyBrandSentiment(sentences: readonly string[], brand?: string): SentimentLabel {
  return classifySentimentLabel(brand ? sentences.map((s) => maskBrand(s, brand)) : sentences);
}

/** Replaces each whole-word occurrence of `brand` (any case, with a possessive 's) with the brand marker. */
function maskBrand(sentence: string, brand: string): string {
  const escaped = brand.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (!escaped) return sentence;
  return sentence.replace(
    new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?:['’]s)?(?![\\p{L}\\p{N}])`, "giu"),
    BRAND_MARKER,
  );
}

/** Sentences masked the older way (every name as `it`) have no marker: `it` then stands for the brand. */
function normalizeMarkers(sentence: string): string {
  return sentence.includes(BRAND_MARKER) ? sentence : sentence.replace(/\bit\b/gi, BRAND_MARKER);
}

function tokenize(sentence: string): Token[] {
  const out: Token[] = [];
  for (const t of winkSentiment(sentence).tokenizedPhrase) {
    const value = t.value.toLowerCase();
    // wink applies its own two-word negation; undo it so that negation is applied once, here.
    const raw = t.score === undefined ? 0 : t.negation ? -t.score : t.score;
    out.push({ value, score: value in SUPPLEMENT ? SUPPLEMENT[value]! : raw });
  }
  return out;
}
