import type { Env } from "@/lib/providers/engine-types";
import type { SentimentLabel } from "./schemas";
import { classifyBrandSentiment } from "./sentiment";
import { judgeSentences, pickJudgeEngine, toSentiment } from "./sentiment-judge";
import {
  type Agreement,
  type LabelledBrandSentence,
  loadSentimentSet,
  measureAgreement,
} from "./sentiment-set";

interface MethodAgreement {
  /** Four labels, mixed kept apart. */
  fine: { overall: Agreement; byLabel: Record<SentimentLabel, Agreement> };
  /** The API's three values (mixed counted as neutral). */
  api: { overall: Agreement; byLabel: Record<SentimentLabel, Agreement> };
}

export interface SentimentEval {
  size: number;
  lexicon: MethodAgreement;
  /** Null when no engine is configured: there is no model to measure. */
  model: (MethodAgreement & { engine: string; models: string[]; failed: number; judged: number }) | null;
}

/**
 * Measures the lexicon and, when an engine is configured, the model judge against the labelled set. A
 * sentence the model could not judge (the call failed) is counted as `failed` and left out of the model's
 * agreement rather than credited with the lexicon's fallback verdict.
 */
export async function evaluateSentiment(
  options: { env?: Env; set?: LabelledBrandSentence[]; concurrency?: number; signal?: AbortSignal } = {},
): Promise<SentimentEval> {
  const set = options.set ?? loadSentimentSet();
  const env = options.env ?? process.env;
  const agreement = (pairs: { expected: SentimentLabel; got: SentimentLabel }[]): MethodAgreement => ({
    fine: measureAgreement(pairs),
    api: measureAgreement(pairs, toSentiment),
  });
  const lexicon = agreement(
    set.map((s) => ({ expected: s.label, got: classifyBrandSentiment([s.sentence], s.brand) })),
  );
  const engine = pickJudgeEngine(env);
  if (!engine) return { size: set.length, lexicon, model: null };

  const verdicts: ({ label: SentimentLabel; model: string } | null)[] = new Array(set.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < set.length) {
      const i = next++;
      const s = set[i]!;
      const judged = await judgeSentences(
        { sentences: [s.sentence], brand: s.brand },
        { env, signal: options.signal },
      );
      if (judged.method === "model") verdicts[i] = { label: judged.label, model: judged.model ?? "" };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  const pairs = set.flatMap((s, i) => (verdicts[i] ? [{ expected: s.label, got: verdicts[i]!.label }] : []));
  return {
    size: set.length,
    lexicon,
    model: {
      engine,
      models: [...new Set(verdicts.flatMap((v) => (v ? [v.model] : [])))],
      judged: pairs.length,
      failed: set.length - pairs.length,
      ...agreement(pairs),
    },
  };
}

/** The report `npm run eval:sentiment` prints. */
export function formatSentimentEval(result: SentimentEval): string {
  const pct = (a: Agreement) => (a.n === 0 ? "—" : `${(a.rate * 100).toFixed(1)}% (${a.agreed}/${a.n})`);
  const lines = [`Labelled set: ${result.size} sentences.`];
  const table = (title: string, m: MethodAgreement) => {
    lines.push(title);
    lines.push(`  overall, three values (mixed as neutral): ${pct(m.api.overall)}`);
    lines.push(`  overall, four labels:                     ${pct(m.fine.overall)}`);
    for (const label of ["positive", "neutral", "negative", "mixed"] as const) {
      lines.push(
        `  ${label.padEnd(8)} four labels ${pct(m.fine.byLabel[label]).padEnd(16)} three values ${pct(m.api.byLabel[label])}`,
      );
    }
  };
  if (result.model) {
    table(
      `Model judge: ${result.model.engine} (${result.model.models.join(", ") || "no verdict"}), ${result.model.judged} judged, ${result.model.failed} failed (left out):`,
      result.model,
    );
  } else {
    lines.push("Model judge: no AI engine is configured, so no model was measured.");
  }
  table("Lexicon:", result.lexicon);
  return lines.join("\n");
}
