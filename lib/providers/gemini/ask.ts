import { GoogleGenAI } from "@google/genai";
import { callWithRetries, EngineError } from "../engine-retry";
import type { AskRequest, EngineAnswer } from "../engine-types";
import { addQuery, addSource, notConfigured, toEngineError } from "../sdk-errors";
import { GEMINI_CONFIG, readGeminiConfig } from "./config";

const ENGINE = "Gemini";

/**
 * Asks Gemini (generateContent with the Google Search grounding tool). Retrieved: every grounding chunk's
 * `web.uri`/`web.title`. Cited: the chunks that `groundingSupports[].groundingChunkIndices` tie to the answer's
 * text, in the order of first support. Queries: `webSearchQueries`. Chunk URIs are redirect links that
 * lib/ai-visibility resolves.
 */
export async function askEngine(request: AskRequest): Promise<EngineAnswer> {
  const config = readGeminiConfig(request.env);
  if (!config) throw notConfigured(ENGINE, GEMINI_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl, model } = config;
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
  const grounding = candidate?.groundingMetadata;
  const chunks = grounding?.groundingChunks ?? [];
  const retrieved: EngineAnswer["retrieved"] = [];
  const seenRetrieved = new Set<string>();
  for (const chunk of chunks) addSource(retrieved, seenRetrieved, chunk.web?.uri, chunk.web?.title);
  const sources: EngineAnswer["sources"] = [];
  const seen = new Set<string>();
  for (const support of grounding?.groundingSupports ?? []) {
    for (const index of support.groundingChunkIndices ?? []) {
      const web = chunks[index]?.web;
      addSource(sources, seen, web?.uri, web?.title);
    }
  }
  const queries: string[] = [];
  for (const q of grounding?.webSearchQueries ?? []) addQuery(queries, q);
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
    retrieved,
    queries,
    usage: {
      inputTokens: meta?.promptTokenCount ?? 0,
      outputTokens: (meta?.candidatesTokenCount ?? 0) + (meta?.thoughtsTokenCount ?? 0),
    },
    attempts,
  };
}
