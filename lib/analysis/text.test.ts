import { describe, expect, test } from "vitest";
import { countSyllables, countWords, endsLikeSentence, measureReadability, splitSentences } from "./text";

describe("countSyllables", () => {
  test.each([
    ["the", 1],
    ["cat", 1],
    ["table", 2],
    ["simple", 2],
    ["reading", 2],
    ["beautiful", 3],
    ["wanted", 2],
    ["needed", 2],
    ["jumped", 1],
    ["played", 1],
    ["make", 1],
    ["cakes", 1],
    ["boxes", 2],
    ["places", 2],
    ["free", 1],
    ["nation", 2],
    ["people", 2],
    ["quality", 3],
    ["language", 2],
    ["actual", 3],
    ["medium", 3],
    ["media", 3],
    ["social", 2],
    ["happy", 2],
    ["question", 2],
    ["readability", 5],
    ["", 0],
    ["42", 0],
  ])("%s → %i", (word, n) => {
    expect(countSyllables(word)).toBe(n);
  });
});

describe("splitSentences", () => {
  test("keeps abbreviations, initials and decimals inside a sentence", () => {
    expect(
      splitSentences(
        "Dr. Smith met J. R. Tolkien at 3.5 p.m. yesterday. It cost $4.50! Really? See e.g. the U.S. report. The end",
      ),
    ).toEqual([
      "Dr. Smith met J. R. Tolkien at 3.5 p.m. yesterday.",
      "It cost $4.50!",
      "Really?",
      "See e.g. the U.S. report.",
      "The end",
    ]);
  });

  test("does not split before a lower-case continuation after a closing quote", () => {
    expect(splitSentences('"Yes." she said. Then "No!" He left.')).toEqual([
      '"Yes." she said.',
      'Then "No!"',
      "He left.",
    ]);
  });

  test("collapses whitespace and ignores empty input", () => {
    expect(splitSentences("  One.\n\n  Two.  ")).toEqual(["One.", "Two."]);
    expect(splitSentences("   ")).toEqual([]);
  });
});

test("countWords counts words with apostrophes, hyphens and digits once", () => {
  expect(countWords("It's a well-known fact: 42 people — or so — agree.")).toBe(9);
  expect(countWords("Ünïcode wörds zählen")).toBe(3);
});

test("endsLikeSentence tells prose from labels", () => {
  expect(endsLikeSentence("This is prose.")).toBe(true);
  expect(endsLikeSentence('He said "go."')).toBe(true);
  expect(endsLikeSentence("Pricing")).toBe(false);
});

describe("measureReadability", () => {
  test("computes Flesch reading ease and grade from words, sentences and syllables", () => {
    // 11 words, 2 sentences, 12 syllables ("sunny" is 2).
    const r = measureReadability(["The cat sat on the mat.", "It was a sunny day."]);
    expect(r).toMatchObject({ words: 11, sentences: 2, syllables: 12, averageSentenceLength: 5.5 });
    expect(r.fleschReadingEase).toBeCloseTo(206.835 - 1.015 * 5.5 - 84.6 * (12 / 11), 1);
    expect(r.gradeLevel).toBeCloseTo(0.39 * 5.5 + 11.8 * (12 / 11) - 15.59, 1);
  });

  test("dense academic prose reads as very difficult", () => {
    const r = measureReadability([
      "Comprehensive institutional methodologies necessitate interdisciplinary collaboration, facilitating organizational transformation through systematic operationalization of theoretical frameworks.",
    ]);
    expect(r.fleschReadingEase).toBeLessThan(0);
    expect(r.gradeLevel).toBeGreaterThan(20);
  });

  test("empty input yields zeros instead of NaN", () => {
    expect(measureReadability([])).toMatchObject({ words: 0, fleschReadingEase: 0, gradeLevel: 0 });
  });
});
