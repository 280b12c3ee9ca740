/** Word, sentence and syllable counting for English prose, shared by content, AEO, GEO and FAQ code. */

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function listWords(text: string): string[] {
  return text.match(WORD) ?? [];
}

export function countWords(text: string): number {
  return listWords(text).length;
}

// Abbreviations whose trailing period does not end a sentence.
const ABBREVIATIONS = new Set(
  (
    "mr mrs ms dr prof sr jr st vs etc e.g i.e eg ie inc ltd co corp no fig figs approx dept est u.s " +
    "u.k a.m p.m jan feb mar apr jun jul aug sep sept oct nov dec mt vol pp ca cf al"
  ).split(" "),
);

const SENTENCE_PUNCTUATION = new Set([".", "!", "?", "…"]);
const CLOSERS = new Set(['"', "'", "”", "’", ")", "]"]);
const SENTENCE_START = /[\p{Lu}\p{N}"'“‘([]/u;
const TOKEN_CHAR = /[\p{L}.]/u;
const UPPERCASE = /^\p{Lu}$/u;
// Longer than any abbreviation, so a longer token need not be read to know it is not one.
const ABBREVIATION_SCAN = 16;

/**
 * Splits one block of prose into sentences. Blocks (paragraphs, list items) are split by the caller first,
 * so a heading without a full stop never merges into the paragraph after it.
 * A hand-written scanner rather than regexes: every character is read a bounded number of times, so a hostile
 * page (thousands of "A. " or a run of dots) costs linear time.
 */
export function splitSentences(text: string): string[] {
  const flat = normalizeSpace(text);
  if (!flat) return [];
  const sentences: string[] = [];
  let start = 0;
  let i = 0;
  while (i < flat.length) {
    if (!SENTENCE_PUNCTUATION.has(flat[i]!)) {
      i++;
      continue;
    }
    // A boundary is a run of end punctuation, then closing quotes or brackets, then a space.
    const at = i;
    while (i < flat.length && SENTENCE_PUNCTUATION.has(flat[i]!)) i++;
    const punctuationEnd = i;
    while (i < flat.length && CLOSERS.has(flat[i]!)) i++;
    if (flat[i] !== " ") continue;
    const end = i + 1;
    i = end;
    if (!SENTENCE_START.test(flat[end] ?? "")) continue;
    if (flat[at] === "." && punctuationEnd === at + 1 && end === at + 2) {
      if (ABBREVIATIONS.has(readTokenBefore(flat, start, at))) continue;
      // A lone capital before the period is an initial ("J. Smith"), not a sentence end.
      if (isInitialBefore(flat, start, at)) continue;
    }
    sentences.push(flat.slice(start, end).trim());
    start = end;
  }
  const rest = flat.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/** The code point ending just before `end`, never reaching before `floor`. */
function codePointBefore(text: string, floor: number, end: number): string {
  if (end - 1 < floor) return "";
  const low = text.charCodeAt(end - 1);
  if (low >= 0xdc00 && low <= 0xdfff && end - 2 >= floor) {
    const high = text.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(end - 2, end);
  }
  return text[end - 1]!;
}

/** The lower-cased run of letters and dots just before the period at `dot` ("e.g", "mr"); "" when too long. */
function readTokenBefore(text: string, floor: number, dot: number): string {
  let from = dot;
  while (from > floor) {
    const ch = codePointBefore(text, floor, from);
    if (!TOKEN_CHAR.test(ch)) break;
    from -= ch.length;
    if (dot - from > ABBREVIATION_SCAN) return "";
  }
  return text.slice(from, dot).toLowerCase();
}

/** The word before the period at `dot` is one capital letter. */
function isInitialBefore(text: string, floor: number, dot: number): boolean {
  const ch = codePointBefore(text, floor, dot);
  if (!ch || !UPPERCASE.test(ch)) return false;
  const from = dot - ch.length;
  return from === floor || text[from - 1] === " ";
}

/** True when the text ends like a finished sentence rather than a fragment (label, menu item). */
export function endsLikeSentence(text: string): boolean {
  return /[.!?…]["'”’)\]]*$/u.test(text.trim());
}

/**
 * English syllable estimate: vowel groups, minus silent endings, plus vowel pairs that are usually split.
 * It is a heuristic (as in every Flesch implementation); errors average out over a page.
 */
export function countSyllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, "");
  if (!w) return 0;
  if (w.length <= 3) return 1;
  let count = (w.match(/[aeiouy]+/g) ?? []).length;
  if (/[^aeiouy]e$/.test(w) && !/[^aeiouy]le$/.test(w)) count -= 1;
  else if (/[^aeioutd]ed$/.test(w)) count -= 1;
  else if (/[^aeiouyszxgc]es$/.test(w) && !/(ch|sh)es$/.test(w)) count -= 1;
  // "biology", "media", "actual", "medium": adjacent vowels pronounced separately.
  count += (w.match(/(?<![tscx])io|(?<![cts])ia|(?<![qg])ua|iu/g) ?? []).length;
  return Math.max(1, count);
}

export interface Readability {
  words: number;
  sentences: number;
  syllables: number;
  /** Flesch reading ease: higher is easier; 60–70 is plain English. */
  fleschReadingEase: number;
  /** Flesch–Kincaid grade level (US school grade). */
  gradeLevel: number;
  averageSentenceLength: number;
}

/** Flesch reading ease and Flesch–Kincaid grade over already-split sentences. */
export function measureReadability(sentences: readonly string[]): Readability {
  const words = sentences.flatMap(listWords).filter((w) => /\p{L}/u.test(w));
  const syllables = words.reduce((sum, w) => sum + countSyllables(w), 0);
  const sentenceCount = sentences.length;
  if (words.length === 0 || sentenceCount === 0) {
    return {
      words: 0,
      sentences: 0,
      syllables: 0,
      fleschReadingEase: 0,
      gradeLevel: 0,
      averageSentenceLength: 0,
    };
  }
  const wps = words.length / sentenceCount;
  const spw = syllables / words.length;
  return {
    words: words.length,
    sentences: sentenceCount,
    syllables,
    fleschReadingEase: round1(206.835 - 1.015 * wps - 84.6 * spw),
    gradeLevel: round1(0.39 * wps + 11.8 * spw - 15.59),
    averageSentenceLength: round1(wps),
  };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
