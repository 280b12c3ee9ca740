import { STRUCTURED_ADAPTERS } from "@/lib/providers/ask-engine";
import type { EngineName, Env, RetryPolicy } from "@/lib/providers/engine-types";
import { listConfiguredEngines } from "@/lib/providers/engines";
import { JUDGE_MODELS, resolveJudgeModel } from "@/lib/providers/structured-types";
import { type EngineUsageRecord, SENTIMENT_LABELS, type Sentiment, type SentimentLabel } from "./schemas";
import { classifyBrandSentiment, SENTIMENT_METHOD } from "./sentiment";

export interface SentimentVerdict {
  sentiment: "positive" | "neutral" | "negative";
  method: "model" | "lexicon";
  model?: string;
}

/** A verdict with the judge's finer label and, when a model was asked, the call's usage for operators. */
export interface SentimentJudgement extends SentimentVerdict {
  label: SentimentLabel;
  usage?: EngineUsageRecord;
  /** Why the lexicon judged instead of a model (no engine configured, or the model call failed). */
  fallbackReason?: string;
}

export interface JudgeContext {
  env?: Env;
  signal?: AbortSignal;
  /** Epoch ms after which no retry starts (the job's limit). */
  deadline?: number;
  retry?: Partial<RetryPolicy>;
}

/** A judgement is a small call: few retries, short waits; past them the lexicon judges. */
const JUDGE_RETRY: Partial<RetryPolicy> = { maxAttempts: 2, baseDelayMs: 500, maxDelayMs: 5_000 };

const JUDGE_INSTRUCTION = [
  "You judge the tone that sentences from an AI assistant's answer take towards one brand.",
  "Judge only the brand named in the input, not other brands, and only what the sentences say about it.",
  "positive: the sentences praise, recommend or favour the brand (a comparison it wins counts).",
  "negative: they criticise it, warn against it or disfavour it (a comparison it loses counts; so does sarcasm that mocks it).",
  "mixed: they clearly praise and clearly criticise it, neither dominating.",
  "neutral: they describe it factually without judging it.",
  'A negated judgement takes the opposite tone ("not recommended" is negative).',
].join("\n");

export const JUDGE_SCHEMA = {
  type: "object",
  properties: {
    sentiment: { type: "string", enum: [...SENTIMENT_LABELS] },
  },
  required: ["sentiment"],
  additionalProperties: false,
} as const;

/** The three-valued sentiment a finer label counts as: mixed counts as neutral. */
export function toSentiment(label: SentimentLabel): Sentiment {
  return label === "mixed" ? "neutral" : label;
}

/** The configured engine whose judge model is cheapest, or null when no engine is configured. */
export function pickJudgeEngine(env: Env = process.env): EngineName | null {
  const configured = listConfiguredEngines(env);
  configured.sort((a, b) => JUDGE_MODELS[a].costRank - JUDGE_MODELS[b].costRank);
  return configured[0] ?? null;
}

/**
 * The tone of the sentences about a brand. With any engine configured, the cheapest configured provider's
 * judge model decides through structured output; without one, or when the call fails, the lexicon does.
 * The verdict names the method (and the model) that decided.
 */
export async function judgeBrandSentiment(
  input: { sentences: string[]; brand: string },
  ctx: { env?: Env; signal?: AbortSignal },
): Promise<SentimentVerdict> {
  const { sentiment, method, model } = await judgeSentences(input, ctx);
  return model ? { sentiment, method, model } : { sentiment, method };
}

/**
 * judgeBrandSentiment with the finer label and the model call's usage (to record on the job).
 * `lexiconSentences`, when given, are the same sentences with every brand name masked (see
 * extractMentionSentences), which the lexicon reads better than the raw ones.
 */
export async function judgeSentences(
  input: { sentences: readonly string[]; brand: string; lexiconSentences?: readonly string[] },
  ctx: JudgeContext,
): Promise<SentimentJudgement> {
  const lexicon = (fallbackReason?: string): SentimentJudgement => {
    const label = input.lexiconSentences
      ? classifyBrandSentiment(input.lexiconSentences)
      : classifyBrandSentiment(input.sentences, input.brand);
    return {
      sentiment: toSentiment(label),
      label,
      method: "lexicon",
      ...(fallbackReason ? { fallbackReason } : {}),
    };
  };
  if (input.sentences.length === 0) return lexicon();
  const env = ctx.env ?? process.env;
  const engine = pickJudgeEngine(env);
  if (!engine) return lexicon("No AI engine is configured.");
  try {
    const answer = await STRUCTURED_ADAPTERS[engine]({
      instruction: JUDGE_INSTRUCTION,
      input: formatJudgeInput(input.brand, input.sentences),
      schemaName: "brand_sentiment",
      schema: { ...JUDGE_SCHEMA, properties: { ...JUDGE_SCHEMA.properties } },
      model: resolveJudgeModel(engine, env),
      env,
      signal: ctx.signal,
      deadline: ctx.deadline,
      retry: { ...JUDGE_RETRY, ...ctx.retry },
    });
    const usage: EngineUsageRecord = {
      engine,
      purpose: "sentiment",
      model: answer.model,
      ...answer.usage,
      attempts: answer.attempts,
    };
    const label = readLabel(answer.json);
    if (!label) {
      return { ...lexicon(`${engine} returned a label outside the schema.`), usage };
    }
    return { sentiment: toSentiment(label), label, method: "model", model: answer.model, usage };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return lexicon(`The ${engine} judge failed: ${message}`);
  }
}

function formatJudgeInput(brand: string, sentences: readonly string[]): string {
  return `Brand: ${brand}\nSentences:\n${sentences.map((s) => `- ${s}`).join("\n")}`;
}

/** One answer's part of a batch judgement: the brand and the sentences of the answer that name it. */
export interface BatchJudgeItem {
  brand: string;
  sentences: readonly string[];
}

/** The result of one batch request: a label per item, in the items' order (null where the reply gave none). */
export interface BatchJudgement {
  labels: (SentimentLabel | null)[];
  model: string;
  usage: EngineUsageRecord;
}

const BATCH_JUDGE_INSTRUCTION = [
  "The input holds numbered items, each one brand and sentences about it from a different AI assistant's answer.",
  "Judge each item on its own: the tone its sentences take towards its brand, not other brands.",
  ...JUDGE_INSTRUCTION.split("\n").slice(2),
  "Return one verdict per item, with the item's number as id.",
].join("\n");

const BATCH_JUDGE_SCHEMA = {
  type: "object",
  properties: {
    verdicts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "integer" },
          sentiment: { type: "string", enum: [...SENTIMENT_LABELS] },
        },
        required: ["id", "sentiment"],
        additionalProperties: false,
      },
    },
  },
  required: ["verdicts"],
  additionalProperties: false,
} as const;

/** The input of a batch request: items numbered from 1, each as a single judgement's input. */
function formatBatchJudgeInput(items: readonly BatchJudgeItem[]): string {
  return items
    .map((item, i) => `Item ${i + 1}\n${formatJudgeInput(item.brand, item.sentences)}`)
    .join("\n\n");
}

/**
 * The label of each of `count` items from a batch reply. An item the reply gives no valid label for, or two
 * different labels, gets null (its answer is then judged by the lexicon); ids outside 1..count are ignored.
 */
export function readBatchLabels(json: unknown, count: number): (SentimentLabel | null)[] {
  const labels: (SentimentLabel | null | undefined)[] = Array.from({ length: count }, () => undefined);
  const verdicts = (json as { verdicts?: unknown } | null)?.verdicts;
  if (!Array.isArray(verdicts)) return labels.map(() => null);
  for (const v of verdicts) {
    const id = (v as { id?: unknown } | null)?.id;
    const label = readLabel(v);
    if (typeof id !== "number" || !Number.isInteger(id) || id < 1 || id > count || !label) continue;
    const seen = labels[id - 1];
    labels[id - 1] = seen === undefined || seen === label ? label : null;
  }
  return labels.map((l) => l ?? null);
}

/** Output tokens a batch reply of `count` verdicts needs, with room to spare. */
const batchOutputTokens = (count: number) => 64 + 24 * count;

/**
 * One structured-output request judging many items on `engine`'s judge model. Throws the provider's error when
 * the request fails (the caller falls back to the lexicon); a reply that labels only some items labels those.
 */
export async function judgeBatch(
  engine: EngineName,
  items: readonly BatchJudgeItem[],
  ctx: JudgeContext,
): Promise<BatchJudgement> {
  const env = ctx.env ?? process.env;
  const answer = await STRUCTURED_ADAPTERS[engine]({
    instruction: BATCH_JUDGE_INSTRUCTION,
    input: formatBatchJudgeInput(items),
    schemaName: "brand_sentiment_batch",
    schema: structuredClone(BATCH_JUDGE_SCHEMA) as unknown as Record<string, unknown>,
    model: resolveJudgeModel(engine, env),
    env,
    signal: ctx.signal,
    deadline: ctx.deadline,
    retry: { ...JUDGE_RETRY, ...ctx.retry },
    maxOutputTokens: batchOutputTokens(items.length),
  });
  return {
    labels: readBatchLabels(answer.json, items.length),
    model: answer.model,
    usage: {
      engine,
      purpose: "sentiment",
      model: answer.model,
      ...answer.usage,
      attempts: answer.attempts,
    },
  };
}

/** The lexicon's verdict on one item (the judge's fallback). */
export function lexiconLabel(item: BatchJudgeItem): SentimentLabel {
  return classifyBrandSentiment(item.sentences, item.brand);
}

function readLabel(json: unknown): SentimentLabel | null {
  const value = (json as { sentiment?: unknown } | null)?.sentiment;
  return typeof value === "string" && (SENTIMENT_LABELS as readonly string[]).includes(value)
    ? (value as SentimentLabel)
    : null;
}

/** The `sentimentMethod` of a result in which no answer mentions the brand. */
export const NOT_JUDGED =
  "Not judged: no answer mentions the brand, so its sentiment is neutral by definition.";

/**
 * The `sentimentMethod` sentence of a result: which method judged the tone of its entries, and which model.
 * Entries that do not mention the brand were not judged and are left out.
 */
export function describeSentimentMethod(
  entries: readonly { engine: EngineName; sentimentDetail?: { method: string; model?: string } }[],
): string {
  const judged = entries.filter((e) => e.sentimentDetail);
  const byModel = judged.filter((e) => e.sentimentDetail!.method === "model");
  const byLexicon = judged.filter((e) => e.sentimentDetail!.method === "lexicon");
  const models = [...new Set(byModel.map((e) => e.sentimentDetail!.model ?? "a model"))].join(", ");
  const modelText = `A model judge (${models}, structured output) over the sentences that mention the brand; mixed counts as neutral`;
  if (judged.length === 0) return NOT_JUDGED;
  if (byModel.length === 0) return SENTIMENT_METHOD;
  if (byLexicon.length === 0) return modelText;
  return `${modelText} (${byModel.map((e) => e.engine).join(", ")}). ${SENTIMENT_METHOD} where the judge could not answer (${byLexicon.map((e) => e.engine).join(", ")}).`;
}
