import { GoogleGenAI } from "@google/genai";
import { callWithRetries, EngineError } from "../engine-retry";
import { notConfigured, toEngineError } from "../sdk-errors";
import {
  parseJsonText,
  resolveJudgeModel,
  type StructuredAnswer,
  type StructuredRequest,
} from "../structured-types";
import { GEMINI_CONFIG, readGeminiConfig } from "./config";

const ENGINE = "Gemini";

/**
 * A structured-output call on generateContent: `responseMimeType: "application/json"` with the schema as
 * `responseJsonSchema`, no tools (grounding is not wanted for a judgement).
 */
export async function askStructured(request: StructuredRequest): Promise<StructuredAnswer> {
  const config = readGeminiConfig(request.env);
  if (!config) throw notConfigured(ENGINE, GEMINI_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl } = config;
  const model = request.model ?? resolveJudgeModel(ENGINE, request.env);
  let lastHeaders: Headers | undefined;
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    lastHeaders = res.headers;
    return res;
  };
  const ai = new GoogleGenAI({
    apiKey,
    httpOptions: { baseUrl, retryOptions: { attempts: 1 }, fetch: recordingFetch, timeout: 60_000 },
  });
  const { value: response, attempts } = await callWithRetries(
    () =>
      ai.models.generateContent({
        model,
        contents: request.input,
        config: {
          systemInstruction: request.instruction,
          responseMimeType: "application/json",
          responseJsonSchema: request.schema,
          abortSignal: request.signal,
        },
      }),
    (err) => toEngineError(ENGINE, err, request.signal, lastHeaders),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );
  const candidate = response.candidates?.[0];
  const text = (candidate?.content?.parts ?? [])
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("");
  const json = parseJsonText(text);
  if (json === null) {
    throw new EngineError(ENGINE, "ENGINE_BAD_RESPONSE", "Gemini returned no structured output.", {
      detail: `finishReason ${candidate?.finishReason ?? "none"}`,
      attempts,
    });
  }
  const meta = response.usageMetadata;
  return {
    engine: ENGINE,
    model: response.modelVersion || model,
    json,
    usage: {
      inputTokens: meta?.promptTokenCount ?? 0,
      outputTokens: (meta?.candidatesTokenCount ?? 0) + (meta?.thoughtsTokenCount ?? 0),
    },
    attempts,
  };
}
