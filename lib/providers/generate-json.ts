// One structured-output call to a configured engine: the model answers a JSON object of the given JSON Schema
// (OpenAI: Responses API `text.format` json_schema, strict; Claude: Messages API asked for the JSON alone).
// No web search: the caller supplies everything the model may use. The answer is parsed here; checking it
// against the caller's own rules is the caller's job.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { ANTHROPIC_CONFIG, readAnthropicConfig } from "./anthropic/config";
import { callWithRetries, EngineError } from "./engine-retry";
import type { EngineName, EngineUsage, Env, RetryPolicy } from "./engine-types";
import { OPENAI_CONFIG, readOpenAiConfig } from "./openai/config";
import { notConfigured, toEngineError } from "./sdk-errors";

/** The engines that can write structured output here, in the order one is picked. */
const JSON_ENGINES = ["ChatGPT", "Claude"] as const satisfies readonly EngineName[];
export type JsonEngine = (typeof JSON_ENGINES)[number];

export interface GenerateJsonRequest {
  /** Instructions and material. */
  prompt: string;
  /** A JSON Schema object (strict-mode compatible: every property required, additionalProperties false). */
  schema: Record<string, unknown>;
  schemaName: string;
  env?: Env;
  signal?: AbortSignal;
  deadline?: number;
  retry?: Partial<RetryPolicy>;
  maxOutputTokens?: number;
}

export interface GeneratedJson {
  engine: JsonEngine;
  model: string;
  value: unknown;
  usage: EngineUsage;
  attempts: number;
}

/** The first engine of JSON_ENGINES with a key in `env`, or null. */
export function pickJsonEngine(env: Env = process.env): JsonEngine | null {
  if (readOpenAiConfig(env)) return "ChatGPT";
  if (readAnthropicConfig(env)) return "Claude";
  return null;
}

function parseJson(engine: JsonEngine, text: string, attempts: number): unknown {
  // A model asked for JSON alone sometimes wraps it in a code fence.
  const body = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, "");
  try {
    return JSON.parse(body);
  } catch {
    throw new EngineError(engine, "ENGINE_BAD_RESPONSE", `${engine} did not answer valid JSON.`, {
      detail: body.slice(0, 200),
      attempts,
    });
  }
}

async function viaOpenAi(request: GenerateJsonRequest): Promise<GeneratedJson> {
  const config = readOpenAiConfig(request.env);
  if (!config) throw notConfigured("ChatGPT", OPENAI_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl, model } = config;
  const client = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 120_000 });
  const { value: response, attempts } = await callWithRetries(
    () =>
      client.responses.create(
        {
          model,
          input: request.prompt,
          store: false,
          max_output_tokens: request.maxOutputTokens ?? 4_000,
          text: {
            format: { type: "json_schema", name: request.schemaName, schema: request.schema, strict: true },
          },
        },
        { signal: request.signal },
      ),
    (err) => toEngineError("ChatGPT", err, request.signal),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );
  const text = (response.output ?? [])
    .flatMap((item) => (item.type === "message" ? item.content : []))
    .map((part) => (part.type === "output_text" ? part.text : ""))
    .join("");
  return {
    engine: "ChatGPT",
    model: response.model || model,
    value: parseJson("ChatGPT", text, attempts),
    usage: {
      inputTokens: response.usage?.input_tokens ?? 0,
      outputTokens: response.usage?.output_tokens ?? 0,
    },
    attempts,
  };
}

async function viaAnthropic(request: GenerateJsonRequest): Promise<GeneratedJson> {
  const config = readAnthropicConfig(request.env);
  if (!config) throw notConfigured("Claude", ANTHROPIC_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl, model } = config;
  const client = new Anthropic({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 120_000 });
  const prompt = `${request.prompt}\n\nAnswer with one JSON object that validates against this JSON Schema, and nothing else:\n${JSON.stringify(request.schema)}`;
  const { value: message, attempts } = await callWithRetries(
    () =>
      client.messages.create(
        {
          model,
          max_tokens: request.maxOutputTokens ?? 4_000,
          messages: [{ role: "user", content: prompt }],
        },
        { signal: request.signal },
      ),
    (err) => toEngineError("Claude", err, request.signal),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );
  const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return {
    engine: "Claude",
    model: message.model || model,
    value: parseJson("Claude", text, attempts),
    usage: { inputTokens: message.usage?.input_tokens ?? 0, outputTokens: message.usage?.output_tokens ?? 0 },
    attempts,
  };
}

/** Asks `engine` (default: the first configured of JSON_ENGINES) for a JSON object; throws EngineError. */
export async function generateJson(
  request: GenerateJsonRequest,
  engine?: JsonEngine,
): Promise<GeneratedJson> {
  const chosen = engine ?? pickJsonEngine(request.env);
  if (!chosen) throw notConfigured("ChatGPT", OPENAI_CONFIG.apiKeyEnv);
  return chosen === "ChatGPT" ? viaOpenAi(request) : viaAnthropic(request);
}
