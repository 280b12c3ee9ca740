import OpenAI from "openai";
import { callWithRetries, EngineError } from "../engine-retry";
import { notConfigured, toEngineError } from "../sdk-errors";
import {
  parseJsonText,
  resolveJudgeModel,
  type StructuredAnswer,
  type StructuredRequest,
} from "../structured-types";
import { PERPLEXITY_CONFIG, readPerplexityConfig } from "./config";

const ENGINE = "Perplexity";

/**
 * A structured-output call on Sonar chat completions: `response_format` of type `json_schema` with a named
 * schema, as Perplexity documents it.
 */
export async function askStructured(request: StructuredRequest): Promise<StructuredAnswer> {
  const config = readPerplexityConfig(request.env);
  if (!config) throw notConfigured(ENGINE, PERPLEXITY_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl } = config;
  const model = request.model ?? resolveJudgeModel(ENGINE, request.env);
  const client = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 60_000 });
  const { value: completion, attempts } = await callWithRetries(
    () =>
      client.chat.completions.create(
        {
          model,
          messages: [
            { role: "system", content: request.instruction },
            { role: "user", content: request.input },
          ],
          response_format: {
            type: "json_schema",
            json_schema: { name: request.schemaName, schema: request.schema },
          },
        },
        { signal: request.signal },
      ),
    (err) => toEngineError(ENGINE, err, request.signal),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );
  const json = parseJsonText(completion.choices?.[0]?.message?.content ?? "");
  if (json === null) {
    throw new EngineError(ENGINE, "ENGINE_BAD_RESPONSE", "Perplexity returned no structured output.", {
      attempts,
    });
  }
  return {
    engine: ENGINE,
    model: completion.model || model,
    json,
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
    attempts,
  };
}
