import OpenAI from "openai";
import { callWithRetries, EngineError } from "../engine-retry";
import { type AskRequest, type EngineAnswer, resolveProvider } from "../engine-types";
import { addSource, notConfigured, toEngineError } from "../sdk-errors";
import { OPENAI_CONFIG } from "./config";

const ENGINE = "ChatGPT";

/** Asks ChatGPT (Responses API, web search on) and reads its `url_citation` annotations as sources. */
export async function askEngine(request: AskRequest): Promise<EngineAnswer> {
  const { apiKey, baseUrl, model } = resolveProvider(OPENAI_CONFIG, request.env);
  if (!apiKey) throw notConfigured(ENGINE, OPENAI_CONFIG.apiKeyEnv);
  // Retries are ours (callWithRetries) so that every attempt is bounded by the job's deadline and counted.
  const client = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 180_000 });
  const { value: response, attempts } = await callWithRetries(
    () =>
      client.responses.create(
        { model, input: request.prompt, tools: [{ type: "web_search" }], store: false },
        { signal: request.signal },
      ),
    (err) => toEngineError(ENGINE, err, request.signal),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );

  const texts: string[] = [];
  const sources: EngineAnswer["sources"] = [];
  const seen = new Set<string>();
  for (const item of response.output ?? []) {
    if (item.type !== "message") continue;
    for (const part of item.content) {
      if (part.type !== "output_text") continue;
      texts.push(part.text);
      for (const annotation of part.annotations ?? []) {
        if (annotation.type === "url_citation") addSource(sources, seen, annotation.url, annotation.title);
      }
    }
  }
  const answer = texts.join("\n\n").trim();
  if (!answer) {
    throw new EngineError(ENGINE, "ENGINE_BAD_RESPONSE", "ChatGPT returned no answer text.", {
      detail: `status ${response.status}`,
      attempts,
    });
  }
  return {
    engine: ENGINE,
    model: response.model || model,
    answer,
    sources,
    usage: {
      inputTokens: response.usage?.input_tokens ?? 0,
      outputTokens: response.usage?.output_tokens ?? 0,
    },
    attempts,
  };
}
