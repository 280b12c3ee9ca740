import type { EngineName, EngineUsage, Env, RetryPolicy } from "./engine-types";

/**
 * A small structured-output call: one instruction, one input, and a JSON schema the provider constrains the
 * reply to. Used for judgements about answers (the sentiment judge), never for the answers themselves.
 */
export interface StructuredRequest {
  /** What the model is to do (system instruction). */
  instruction: string;
  /** The material to judge (user turn). */
  input: string;
  /** Name of the schema, [a-zA-Z0-9_-]{1,64} (OpenAI and Perplexity require one). */
  schemaName: string;
  /** A JSON Schema object; kept to the subset every provider accepts (object, array, enum, string, integer, required). */
  schema: Record<string, unknown>;
  /** The model to use; default the provider's judge model (see JUDGE_MODELS). */
  model?: string;
  env?: Env;
  signal?: AbortSignal;
  deadline?: number;
  retry?: Partial<RetryPolicy>;
  /** A cap on the reply's tokens where the provider requires one (a batch of verdicts needs more than one). */
  maxOutputTokens?: number;
}

export interface StructuredAnswer {
  engine: EngineName;
  model: string;
  /** The parsed JSON the model returned (not yet checked against the schema: the caller validates it). */
  json: unknown;
  usage: EngineUsage;
  attempts: number;
}

export type AskStructured = (request: StructuredRequest) => Promise<StructuredAnswer>;

/**
 * Each provider's model for judgements: its cheapest current model able to follow a JSON schema, overridable
 * per provider. `costRank` orders the providers by the default model's list price for a short judgement
 * (a few hundred input tokens, a few dozen output tokens; Sonar's per-request fee included): the judge uses the
 * lowest-ranked configured provider. An overridden model keeps its provider's rank.
 */
export interface JudgeModel {
  modelEnv: string;
  defaultModel: string;
  costRank: number;
}

export const JUDGE_MODELS: Record<EngineName, JudgeModel> = {
  ChatGPT: { modelEnv: "OPENAI_JUDGE_MODEL", defaultModel: "gpt-5-nano", costRank: 1 },
  Gemini: { modelEnv: "GEMINI_JUDGE_MODEL", defaultModel: "gemini-2.5-flash-lite", costRank: 2 },
  Claude: { modelEnv: "ANTHROPIC_JUDGE_MODEL", defaultModel: "claude-haiku-4-5", costRank: 3 },
  Perplexity: { modelEnv: "PERPLEXITY_JUDGE_MODEL", defaultModel: "sonar", costRank: 4 },
};

/** The judge model the environment gives an engine's provider. */
export function resolveJudgeModel(engine: EngineName, env: Env = process.env): string {
  const entry = JUDGE_MODELS[engine];
  return env[entry.modelEnv]?.trim() || entry.defaultModel;
}

/** Parses a model's JSON text; null when it is not JSON. */
export function parseJsonText(text: string): unknown {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  try {
    return JSON.parse(trimmed);
  } catch {
    return null;
  }
}
