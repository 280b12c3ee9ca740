import { GoogleGenAI } from "@google/genai";
import { callWithRetries, EngineError } from "../engine-retry";
import { type AskRequest, type EngineAnswer, resolveProvider } from "../engine-types";
import { addSource, notConfigured, toEngineError } from "../sdk-errors";
import { GEMINI_CONFIG } from "./config";

const ENGINE = "Gemini";

/**
 * Asks Gemini (generateContent with the Google Search grounding tool). Sources are the grounding chunks'
 * `web.uri`/`web.title`; those URIs are redirect links that lib/ai-visibility resolves.
 */
export async function askEngine(request: AskRequest): Promise<EngineAnswer> {
  const { apiKey, baseUrl, model } = resolveProvider(GEMINI_CONFIG, request.env);
  if (!apiKey) throw notConfigured(ENGINE, GEMINI_CONFIG.apiKeyEnv);
  // The SDK's ApiError carries the status but not the headers: this fetch keeps the last response's headers so
  // a 429's Retry-After can be honoured.
  let lastHeaders: Headers | undefined;
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    lastHeaders = res.headers;
    return res;
  };
  const ai = new GoogleGenAI({
    apiKey,
    httpOptions: { baseUrl, retryOptions: { attempts: 1 }, fetch: recordingFetch, timeout: 180_000 },
  });
  const { value: response, attempts } = await callWithRetries(
    () =>
      ai.models.generateContent({
        model,
        contents: request.prompt,
        config: { tools: [{ googleSearch: {} }], abortSignal: request.signal },
      }),
    (err) => toEngineError(ENGINE, err, request.signal, lastHeaders),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );

  const candidate = response.candidates?.[0];
  const answer = (candidate?.content?.parts ?? [])
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("")
    .trim();
  const sources: EngineAnswer["sources"] = [];
  const seen = new Set<string>();
  for (const chunk of candidate?.groundingMetadata?.groundingChunks ?? []) {
    addSource(sources, seen, chunk.web?.uri, chunk.web?.title);
  }
  if (!answer) {
    throw new EngineError(ENGINE, "ENGINE_BAD_RESPONSE", "Gemini returned no answer text.", {
      detail: `finishReason ${candidate?.finishReason ?? "none"}`,
      attempts,
    });
  }
  const meta = response.usageMetadata;
  return {
    engine: ENGINE,
    model: response.modelVersion || model,
    answer,
    sources,
    usage: {
      inputTokens: meta?.promptTokenCount ?? 0,
      outputTokens: (meta?.candidatesTokenCount ?? 0) + (meta?.thoughtsTokenCount ?? 0),
    },
    attempts,
  };
}
