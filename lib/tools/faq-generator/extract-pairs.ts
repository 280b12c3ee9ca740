/**
 * Finds question/answer pairs the page itself already contains, most explicit first: FAQPage markup,
 * <details> accordions, definition lists, question headings with the paragraphs under them, and
 * definitional sentences ("X is a …"). Answers are the page's own sentences; nothing is invented.
 */
import type { CheerioAPI } from "cheerio";
import type { AnyNode, Element } from "domhandler";
import { extractBlocks, findMainRoot, textOf } from "@/lib/analysis/blocks";
import { findDescendants, tagSet } from "@/lib/analysis/dom";
import { isQuestionText, listHeadingSections, toQuestion } from "@/lib/analysis/questions";
import { findTypedNodes, readText, type StructuredDataReport } from "@/lib/analysis/structured-data/analyze";
import { isObject } from "@/lib/analysis/structured-data/extract";
import { countWords, endsLikeSentence, listWords, splitSentences } from "@/lib/analysis/text";
import type { ParsedPage } from "@/lib/analysis/types";
import { composeAnswer } from "./answers";
import type { FaqPair } from "./schema";

// Cheerio's find is quadratic in the number of children; this walk is linear.
const DETAILS = tagSet("details");
const DL = tagSet("dl");
const DT_DD = tagSet("dt dd");

export function extractFaqPairs(page: ParsedPage, sd: StructuredDataReport): FaqPair[] {
  const { el: root } = findMainRoot(page);
  const scope = root ? page.$(root) : page.$("body");
  const candidates = [
    ...fromFaqSchema(sd),
    ...fromDetails(
      page.$,
      scope.toArray().flatMap((el) => findDescendants(el, DETAILS)),
    ),
    ...fromDefinitionLists(scope.toArray().flatMap((el) => findDescendants(el, DL))),
    ...fromQuestionHeadings(page),
    ...fromDefinitions(page),
  ];
  return deduplicate(candidates);
}

function fromFaqSchema(sd: StructuredDataReport): FaqPair[] {
  const pairs: FaqPair[] = [];
  for (const faq of findTypedNodes(sd.entities, "FAQPage")) {
    const questions = [faq.mainEntity].flat().filter(isObject);
    for (const q of questions) {
      const name = readText(q.name);
      const accepted = [q.acceptedAnswer ?? q.suggestedAnswer].flat()[0];
      // Site-written answers may run longer than our target; keep them whole up to the hard limit.
      const answer = composeAnswer([readText(accepted)], { target: 120, max: 120 });
      if (name && answer) pairs.push({ question: toQuestion(name), answer, source: "faq-schema" });
    }
  }
  return pairs;
}

/** Texts of an element's children, in order, leaving out the ones `skip` names (a <summary>). */
function childTexts(el: Element, skip: (child: Element) => boolean): string[] {
  return el.children
    .filter((c: AnyNode) => c.type === "text" || (c.type === "tag" && !skip(c as Element)))
    .map((c) => textOf(c))
    .filter(Boolean);
}

function fromDetails($: CheerioAPI, details: Element[]): FaqPair[] {
  const pairs: FaqPair[] = [];
  for (const el of details) {
    const summary = $(el).children("summary").first();
    const summaryEl = summary.get(0);
    const question = summaryEl ? textOf(summaryEl) : "";
    if (!isQuestionText(question)) continue;
    const answer = composeAnswer(childTexts(el, (c) => c.name === "summary"));
    if (answer) pairs.push({ question: toQuestion(question), answer, source: "details" });
  }
  return pairs;
}

function fromDefinitionLists(lists: Element[]): FaqPair[] {
  const pairs: FaqPair[] = [];
  for (const dl of lists) {
    // dt/dd may sit directly in the dl or be grouped in divs (allowed by HTML).
    const items = findDescendants(dl, DT_DD);
    for (const [i, dt] of items.entries()) {
      if (dt.name !== "dt") continue;
      const term = textOf(dt);
      const dds: string[] = [];
      // An index walk, not items.slice(i + 1): a list of thousands of terms would copy the rest each time.
      for (let j = i + 1; j < items.length && items[j]!.name === "dd"; j++) dds.push(textOf(items[j]!));
      const answer = composeAnswer(dds);
      if (!answer) continue;
      if (isQuestionText(term)) {
        pairs.push({ question: toQuestion(term), answer, source: "definition-list" });
      } else if (countWords(term) <= 5 && endsLikeSentence(dds[0] ?? "")) {
        // A glossary entry: the term's definition answers "What is <term>?".
        pairs.push({ question: `What is ${term.replace(/[:.]$/, "")}?`, answer, source: "definition-list" });
      }
    }
  }
  return pairs;
}

function fromQuestionHeadings(page: ParsedPage): FaqPair[] {
  const pairs: FaqPair[] = [];
  for (const section of listHeadingSections(extractBlocks(page))) {
    if (!isQuestionText(section.heading.text)) continue;
    // The answer is the prose right under the heading; a list or table there is not a sentence answer.
    const prose: string[] = [];
    for (const block of section.body) {
      if (block.kind !== "paragraph") break;
      prose.push(block.text);
    }
    const answer = composeAnswer(prose);
    if (answer) pairs.push({ question: toQuestion(section.heading.text), answer, source: "heading" });
  }
  return pairs;
}

const NOT_A_SUBJECT = new Set(
  (
    "it this that there these those he she they we you i here what which who our your my his her its their " +
    "each every some any one today now this"
  ).split(" "),
);
const GENERIC_HEADS = new Set(
  "result answer problem reason goal idea point key best main first second next last difference benefit downside catch trick process thing way".split(
    " ",
  ),
);
const DEFINITION =
  /^((?:(?:A|An|The)\s+)?\p{Lu}[\p{L}\p{N}'’-]*(?:\s+(?:\([^)]{1,20}\)|[\p{L}\p{N}'’-]+)){0,5}?)\s+(is|are|refers to|means)\s+(?:a|an|one of|any|the(?!\s+(?:\p{L}+est|most|best|least|only|first|last|main|key|same)\b))\b/u;

/** "A French press is a …" → "What is a French press?" with that sentence as the answer. */
function fromDefinitions(page: ParsedPage): FaqPair[] {
  const pairs: FaqPair[] = [];
  const blocks = extractBlocks(page);
  // A subject capitalised only because it starts the sentence ("Caching is …") reads lower-case mid-question.
  const lowerWords = new Set(blocks.flatMap((b) => listWords(b.text)).filter((w) => w === w.toLowerCase()));
  for (const block of blocks) {
    if (block.kind !== "paragraph") continue;
    const sentences = splitSentences(block.text);
    for (const [i, sentence] of sentences.entries()) {
      const m = DEFINITION.exec(sentence);
      if (!m?.[1] || countWords(sentence) < 8) continue;
      const words = listWords(m[1]).map((w) => w.toLowerCase());
      const [first = "", second = ""] = words;
      if (NOT_A_SUBJECT.has(first)) continue;
      if (first === "the" && words.length === 2 && GENERIC_HEADS.has(second)) continue;
      const subject = m[1]
        .replace(/^(A|An|The)\s/, (a) => a.toLowerCase())
        .replace(/^\p{Lu}[\p{Ll}'’-]*/u, (w) => (lowerWords.has(w.toLowerCase()) ? w.toLowerCase() : w));
      // A short definition continued by "It …"/"They …" (the same subject) reads better with that sentence.
      const next = sentences[i + 1];
      const texts =
        countWords(sentence) < 15 && next && /^(It|They)\s/.test(next) ? [sentence, next] : [sentence];
      const answer = composeAnswer(texts, { target: 60 });
      const verb = m[2] === "are" ? "are" : "is";
      if (answer) pairs.push({ question: `What ${verb} ${subject}?`, answer, source: "definition" });
    }
  }
  return pairs;
}

const QUESTION_STOPWORDS = new Set(
  "what whats is are the a an do does did how i my you your to of for in on can could should would will it its this that".split(
    " ",
  ),
);

function questionKey(question: string): Set<string> {
  return new Set(listWords(question.toLowerCase()).filter((w) => !QUESTION_STOPWORDS.has(w)));
}

function normalizeAnswer(answer: string): string {
  return listWords(answer.toLowerCase()).join(" ");
}

/**
 * Drops a pair when an earlier (more explicit) one asks nearly the same question (word overlap ≥ 75%)
 * or gives the same answer (one answer contains the other).
 */
export function deduplicate(pairs: readonly FaqPair[]): FaqPair[] {
  const kept: Array<FaqPair & { key: Set<string>; norm: string }> = [];
  for (const pair of pairs) {
    const key = questionKey(pair.question);
    const norm = normalizeAnswer(pair.answer);
    const duplicate = kept.some((k) => {
      const shared = [...key].filter((w) => k.key.has(w)).length;
      const union = new Set([...key, ...k.key]).size;
      return (union > 0 && shared / union >= 0.75) || k.norm.includes(norm) || norm.includes(k.norm);
    });
    if (!duplicate) kept.push({ ...pair, key, norm });
  }
  return kept.map(({ key: _key, norm: _norm, ...pair }) => pair);
}
