import OpenAI from "openai";
import { callWithRetries, EngineError } from "../engine-retry";
import { notConfigured, toEngineError } from "../sdk-errors";
import {
  parseJsonText,
  resolveJudgeModel,
  type StructuredAnswer,
  type StructuredRequest,
} from "../structured-types";
import { OPENAI_CONFIG, readOpenAiConfig } from "./config";

const ENGINE = "ChatGPT";

/** A structured-output call on the Responses API: `text.format` of type `json_schema`, strict, no tools. */
export async function askStructured(request: StructuredRequest): Promise<StructuredAnswer> {
  const config = readOpenAiConfig(request.env);
  if (!config) throw notConfigured(ENGINE, OPENAI_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl } = config;
  const model = request.model ?? resolveJudgeModel(ENGINE, request.env);
  const client = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 60_000 });
  const { value: response, attempts } = await callWithRetries(
    () =>
      client.responses.create(
        {
          model,
          instructions: request.instruction,
          input: request.input,
          text: {
            format: { type: "json_schema", name: request.schemaName, schema: request.schema, strict: true },
          },
          store: false,
        },
        { signal: request.signal },
      ),
    (err) => toEngineError(ENGINE, err, request.signal),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );
  const text = (response.output ?? [])
    .flatMap((item) => (item.type === "message" ? item.content : []))
    .map((part) => (part.type === "output_text" ? part.text : ""))
    .join("");
  const json = parseJsonText(text);
  if (json === null) {
    throw new EngineError(ENGINE, "ENGINE_BAD_RESPONSE", "ChatGPT returned no structured output.", {
      detail: `status ${response.status}`,
      attempts,
    });
  }
  return {
    engine: ENGINE,
    model: response.model || model,
    json,
    usage: {
      inputTokens: response.usage?.input_tokens ?? 0,
      outputTokens: response.usage?.output_tokens ?? 0,
    },
    attempts,
  };
}
