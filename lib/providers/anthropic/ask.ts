import Anthropic from "@anthropic-ai/sdk";
import { callWithRetries, EngineError } from "../engine-retry";
import type { AskRequest, EngineAnswer } from "../engine-types";
import { addQuery, addSource, notConfigured, toEngineError } from "../sdk-errors";
import { ANTHROPIC_CONFIG, ANTHROPIC_WEB_SEARCH_TOOL, readAnthropicConfig } from "./config";

const ENGINE = "Claude";
const MAX_TOKENS = 4096;
/** A long search turn can stop with `pause_turn`; it is continued at most this many times. */
const MAX_CONTINUATIONS = 2;

/**
 * Asks Claude (Messages API, web search server tool on). Cited: the `web_search_result_location` citations on
 * its text blocks. Retrieved: the results of its `web_search_tool_result` blocks (a search result Claude read is
 * not a citation). Queries: the `input.query` of its `server_tool_use` blocks named `web_search`.
 */
export async function askEngine(request: AskRequest): Promise<EngineAnswer> {
  const config = readAnthropicConfig(request.env);
  if (!config) throw notConfigured(ENGINE, ANTHROPIC_CONFIG.apiKeyEnv);
  const { apiKey, baseUrl, model } = config;
  const client = new Anthropic({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 180_000 });

  const messages: Anthropic.MessageParam[] = [{ role: "user", content: request.prompt }];
  const content: Anthropic.ContentBlock[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let attempts = 0;
  let servedModel = model;
  for (let turn = 0; turn <= MAX_CONTINUATIONS; turn++) {
    if (turn > 0) await request.beforeFollowUp?.();
    const { value: message, attempts: used } = await callWithRetries(
      () =>
        client.messages.create(
          {
            model,
            max_tokens: MAX_TOKENS,
            messages,
            tools: [{ type: ANTHROPIC_WEB_SEARCH_TOOL, name: "web_search", max_uses: 5 }],
          },
          { signal: request.signal },
        ),
      (err) => toEngineError(ENGINE, err, request.signal),
      { signal: request.signal, deadline: request.deadline, policy: request.retry },
    );
    attempts += used;
    servedModel = message.model || model;
    usage.inputTokens += message.usage?.input_tokens ?? 0;
    usage.outputTokens += message.usage?.output_tokens ?? 0;
    content.push(...message.content);
    if (message.stop_reason !== "pause_turn") break;
    messages.push({ role: "assistant", content: message.content as Anthropic.ContentBlockParam[] });
  }

  const texts: string[] = [];
  const cited: EngineAnswer["sources"] = [];
  const seen = new Set<string>();
  for (const block of content) {
    if (block.type !== "text") continue;
    texts.push(block.text);
    for (const citation of block.citations ?? []) {
      if (citation.type === "web_search_result_location")
        addSource(cited, seen, citation.url, citation.title);
    }
  }
  const retrieved: EngineAnswer["retrieved"] = [];
  const seenRetrieved = new Set<string>();
  const queries: string[] = [];
  for (const block of content) {
    if (block.type === "server_tool_use" && block.name === "web_search") {
      addQuery(queries, (block.input as { query?: unknown } | null)?.query);
    }
    if (block.type !== "web_search_tool_result" || !Array.isArray(block.content)) continue;
    for (const result of block.content) addSource(retrieved, seenRetrieved, result.url, result.title);
  }
  const answer = texts.join("").trim();
  if (!answer) {
    throw new EngineError(ENGINE, "ENGINE_BAD_RESPONSE", "Claude returned no answer text.", { attempts });
  }
  return {
    engine: ENGINE,
    model: servedModel,
    answer,
    sources: cited,
    retrieved,
    queries,
    usage,
    attempts,
  };
}
