// FAQs written by an AI engine from the page's own sentences. The engine sees the page as numbered sentences
// and answers 8-10 questions, each naming the sentences it rests on; an answer is kept only when every
// sentence it names exists, and the answer's content words are found in them (the engine may rephrase, not
// add facts). Anything the page cannot support is dropped, never written.
import { listProseSentences } from "@/lib/analysis/content";
import { normalizeSpace } from "@/lib/analysis/text";
import type { ParsedPage } from "@/lib/analysis/types";
import { isStopWord } from "@/lib/keywords/stop-words";
import type { Env } from "@/lib/providers/engine-types";
import { type GeneratedJson, generateJson, type JsonEngine } from "@/lib/providers/generate-json";
import { MAX_PAIRS, MIN_PAIRS } from "./schema";

/** At most this many sentences go to the engine (the page's first ones, in reading order). */
const MAX_PROMPT_SENTENCES = 300;
/** Share of an answer's content words that must appear in its supporting sentences. */
const MIN_SUPPORT = 0.8;

interface GroundedPair {
  question: string;
  answer: string;
  /** The page's sentences the answer rests on, verbatim. */
  supportingSentences: string[];
}

const GROUNDED_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["pairs"],
  properties: {
    pairs: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["question", "answer", "sentences"],
        properties: {
          question: { type: "string" },
          answer: { type: "string" },
          sentences: { type: "array", items: { type: "integer" } },
        },
      },
    },
  },
} as const;

/** The page's distinct prose sentences, in reading order. */
export function pageSentences(page: ParsedPage): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of listProseSentences(page)) {
    const text = normalizeSpace(s);
    if (text.split(" ").length < 4 || seen.has(text)) continue;
    seen.add(text);
    out.push(text);
    if (out.length >= MAX_PROMPT_SENTENCES) break;
  }
  return out;
}

export function buildPrompt(title: string, sentences: readonly string[]): string {
  return [
    `You write the FAQ section of a web page titled "${title}".`,
    `Write ${MIN_PAIRS} to ${MAX_PAIRS} questions a visitor or a searcher would ask about what this page covers, and answer each one using only the page's numbered sentences below.`,
    "Rules: answer in one to three sentences of plain prose; use only facts stated in the sentences you cite; list in `sentences` the numbers of every sentence the answer rests on; do not ask a question the sentences cannot answer; do not repeat a question; no marketing language.",
    "",
    "Page sentences:",
    ...sentences.map((s, i) => `[${i + 1}] ${s}`),
  ].join("\n");
}

const words = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** Crude stem so "ships"/"shipping"/"shipped" meet: drop common English endings. */
const stem = (w: string) => w.replace(/(ing|ed|es|s|ly)$/, "") || w;

/** The share of the answer's content words (numbers included) found in the supporting sentences. */
export function supportOf(answer: string, supporting: readonly string[]): number {
  const pool = new Set(supporting.flatMap(words).map(stem));
  const content = words(answer).filter((w) => /\d/.test(w) || !isStopWord(w));
  if (content.length === 0) return 0;
  return content.filter((w) => pool.has(stem(w))).length / content.length;
}

export interface GroundedOutcome {
  pairs: GroundedPair[];
  /** Pairs the engine wrote that were dropped, and why (for operators and tests). */
  dropped: { question: string; reason: string }[];
  engine: JsonEngine;
  model: string;
  usage: GeneratedJson["usage"];
}

/** Checks the engine's pairs against the sentences it was given; keeps at most MAX_PAIRS. */
export function verifyPairs(
  raw: unknown,
  sentences: readonly string[],
): Pick<GroundedOutcome, "pairs" | "dropped"> {
  const pairs: GroundedPair[] = [];
  const dropped: GroundedOutcome["dropped"] = [];
  const list = (raw as { pairs?: unknown })?.pairs;
  const seenQuestions = new Set<string>();
  for (const item of Array.isArray(list) ? list : []) {
    const { question, answer, sentences: ids } = (item ?? {}) as Record<string, unknown>;
    if (typeof question !== "string" || typeof answer !== "string" || !Array.isArray(ids)) continue;
    const q = normalizeSpace(question);
    const a = normalizeSpace(answer);
    if (!q || !a) continue;
    const key = q.toLowerCase().replace(/[\s?.!]+$/, "");
    if (seenQuestions.has(key)) {
      dropped.push({ question: q, reason: "repeated question" });
      continue;
    }
    const numbers = [...new Set(ids)].filter((n): n is number => Number.isInteger(n));
    const supporting = numbers.map((n) => sentences[n - 1]).filter((s): s is string => s !== undefined);
    if (supporting.length === 0 || supporting.length !== numbers.length) {
      dropped.push({ question: q, reason: "cites sentences the page does not have" });
      continue;
    }
    const support = supportOf(a, supporting);
    if (support < MIN_SUPPORT) {
      dropped.push({
        question: q,
        reason: `only ${Math.round(support * 100)}% of the answer's words are in its sentences`,
      });
      continue;
    }
    seenQuestions.add(key);
    pairs.push({ question: q.endsWith("?") ? q : `${q}?`, answer: a, supportingSentences: supporting });
    if (pairs.length >= MAX_PAIRS) break;
  }
  return { pairs, dropped };
}

export async function writeGroundedFaq(
  page: ParsedPage,
  opts: { env: Env; signal: AbortSignal; deadline?: number },
): Promise<GroundedOutcome | null> {
  const sentences = pageSentences(page);
  if (sentences.length < 3) return null;
  const title = normalizeSpace(page.$("title").first().text()) || page.url.hostname;
  const generated = await generateJson({
    prompt: buildPrompt(title, sentences),
    schema: GROUNDED_SCHEMA as unknown as Record<string, unknown>,
    schemaName: "faq",
    env: opts.env,
    signal: opts.signal,
    deadline: opts.deadline,
  });
  return {
    ...verifyPairs(generated.value, sentences),
    engine: generated.engine,
    model: generated.model,
    usage: generated.usage,
  };
}
