import OpenAI from "openai";
import { callWithRetries, EngineError } from "../engine-retry";
import type { AskRequest, EngineAnswer } from "../engine-types";
import { addSource, notConfigured, toEngineError } from "../sdk-errors";
import { PERPLEXITY_CONFIG, readPerplexityConfig } from "./config";

const ENGINE = "Perplexity";

/** Fields Sonar adds to an OpenAI-shaped chat completion. */
interface SonarExtras {
  citations?: unknown;
  search_results?: unknown;
}

/**
 * The URLs an answer cites when the response has no `citations` (Perplexity moved the sources to `search_results`,
 * which the text's [n] markers number from 1): the results the markers name, in the order first named; every
 * result when the text names none.
 */
function citedResults(answer: string, urls: string[]): string[] {
  const named: string[] = [];
  for (const match of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const url = urls[Number(match[1]) - 1];
    if (url !== undefined && !named.includes(url)) named.push(url);
  }
  return named.length > 0 ? named : urls;
}

/**
 * Asks Perplexity (Sonar chat completions; Perplexity documents the OpenAI SDK pointed at its base URL as a
 * supported client). Cited: `citations` in order, titled from `search_results`; without `citations`, the
 * `search_results` the text's [n] markers name (citedResults). Retrieved: `search_results`. Queries: none,
 * Sonar's response does not report the searches it ran.
 */
export async function askEngine(request: AskRequest): Promise<EngineAnswer> {
  const config = readPerplexityConfig(request.env);
  if (!config) throw notConfigured(ENGINE, PERPLEXITY_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl, model } = config;
  const client = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 180_000 });
  const { value: completion, attempts } = await callWithRetries(
    () =>
      client.chat.completions.create(
        { model, messages: [{ role: "user", content: request.prompt }] },
        { signal: request.signal },
      ),
    (err) => toEngineError(ENGINE, err, request.signal),
    { signal: request.signal, deadline: request.deadline, policy: request.retry },
  );

  const extras = completion as unknown as SonarExtras;
  const results = Array.isArray(extras.search_results)
    ? (extras.search_results as { url?: unknown; title?: unknown }[])
    : [];
  const titles = new Map<string, string>();
  for (const r of results)
    if (typeof r.url === "string" && typeof r.title === "string") titles.set(r.url, r.title);
  const answer = completion.choices?.[0]?.message?.content?.trim() ?? "";
  const resultUrls = results.flatMap((r) => (typeof r.url === "string" ? [r.url] : []));
  const citations = Array.isArray(extras.citations)
    ? (extras.citations as unknown[])
    : citedResults(answer, resultUrls);
  const sources: EngineAnswer["sources"] = [];
  const seen = new Set<string>();
  for (const url of citations) addSource(sources, seen, url, typeof url === "string" ? titles.get(url) : "");
  const retrieved: EngineAnswer["retrieved"] = [];
  const seenRetrieved = new Set<string>();
  for (const r of results) addSource(retrieved, seenRetrieved, r.url, r.title);

  if (!answer) {
    throw new EngineError(ENGINE, "ENGINE_BAD_RESPONSE", "Perplexity returned no answer text.", { attempts });
  }
  return {
    engine: ENGINE,
    model: completion.model || model,
    answer,
    sources,
    retrieved,
    queries: [],
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
    attempts,
  };
}
