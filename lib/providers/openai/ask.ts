import OpenAI from "openai";
import { callWithRetries, EngineError } from "../engine-retry";
import type { AskRequest, EngineAnswer } from "../engine-types";
import { addQuery, addSource, notConfigured, toEngineError } from "../sdk-errors";
import { OPENAI_CONFIG, readOpenAiConfig } from "./config";

const ENGINE = "ChatGPT";

/**
 * Asks ChatGPT (Responses API, web search on). Cited: the `url_citation` annotations on its output text.
 * Retrieved: the sources of its `web_search_call` items (only sent when asked for with
 * `include: ["web_search_call.action.sources"]`). Queries: those calls' `action.queries` (or the older
 * single `action.query`).
 */
export async function askEngine(request: AskRequest): Promise<EngineAnswer> {
  const config = readOpenAiConfig(request.env);
  if (!config) throw notConfigured(ENGINE, OPENAI_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl, model } = config;
  // Retries are ours (callWithRetries) so that every attempt is bounded by the job's deadline and counted.
  const client = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 180_000 });
  const { value: response, attempts } = await callWithRetries(
    () =>
      client.responses.create(
        {
          model,
          input: request.prompt,
          tools: [{ type: "web_search" }],
          include: ["web_search_call.action.sources"],
          store: false,
        },
        { signal: request.signal },
      ),
    (err) => toEngineError(ENGINE, err, request.signal),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );

  const texts: string[] = [];
  const sources: EngineAnswer["sources"] = [];
  const retrieved: EngineAnswer["retrieved"] = [];
  const queries: string[] = [];
  const seen = new Set<string>();
  const seenRetrieved = new Set<string>();
  for (const item of response.output ?? []) {
    if (item.type === "web_search_call") {
      if (item.action?.type !== "search") continue;
      for (const q of item.action.queries ?? []) addQuery(queries, q);
      addQuery(queries, item.action.query);
      for (const source of item.action.sources ?? []) addSource(retrieved, seenRetrieved, source.url, "");
      continue;
    }
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
  // Search call sources carry no title; a cited page lends its annotation's title to the same URL.
  const titles = new Map(sources.map((s) => [s.url, s.title]));
  for (const r of retrieved) r.title = titles.get(r.url) ?? r.title;
  return {
    engine: ENGINE,
    model: response.model || model,
    answer,
    sources,
    retrieved,
    queries,
    usage: {
      inputTokens: response.usage?.input_tokens ?? 0,
      outputTokens: response.usage?.output_tokens ?? 0,
    },
    attempts,
  };
}
