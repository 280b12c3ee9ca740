import Anthropic from "@anthropic-ai/sdk";
import { callWithRetries, EngineError } from "../engine-retry";
import { notConfigured, toEngineError } from "../sdk-errors";
import {
  parseJsonText,
  resolveJudgeModel,
  type StructuredAnswer,
  type StructuredRequest,
} from "../structured-types";
import { ANTHROPIC_CONFIG, readAnthropicConfig } from "./config";

const ENGINE = "Claude";

/** A structured-output call on the Messages API: `output_config.format` of type `json_schema`, no tools. */
export async function askStructured(request: StructuredRequest): Promise<StructuredAnswer> {
  const config = readAnthropicConfig(request.env);
  if (!config) throw notConfigured(ENGINE, ANTHROPIC_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl } = config;
  const model = request.model ?? resolveJudgeModel(ENGINE, request.env);
  const client = new Anthropic({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 60_000 });
  const { value: message, attempts } = await callWithRetries(
    () =>
      client.messages.create(
        {
          model,
          max_tokens: request.maxOutputTokens ?? 256,
          system: request.instruction,
          messages: [{ role: "user", content: request.input }],
          output_config: { format: { type: "json_schema", schema: request.schema } },
        },
        { signal: request.signal },
      ),
    (err) => toEngineError(ENGINE, err, request.signal),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );
  const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  const json = parseJsonText(text);
  if (json === null) {
    throw new EngineError(ENGINE, "ENGINE_BAD_RESPONSE", "Claude returned no structured output.", {
      detail: `stop_reason ${message.stop_reason}`,
      attempts,
    });
  }
  return {
    engine: ENGINE,
    model: message.model || model,
    json,
    usage: { inputTokens: message.usage?.input_tokens ?? 0, outputTokens: message.usage?.output_tokens ?? 0 },
    attempts,
  };
}
