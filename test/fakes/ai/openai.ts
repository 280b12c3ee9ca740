import {
  bearerOf,
  type FakeProvider,
  type RecordedRequest,
  randomId,
  type ScriptedAnswer,
  spanOf,
  startFakeProvider,
} from "./server";

export const FAKE_OPENAI_KEY = "sk-test-openai";

/**
 * The OpenAI Responses API as the `openai` SDK calls it: POST {base}/responses with a Bearer key, answered with a
 * full Response object whose output holds a `web_search_call` item and a `message` item, its `output_text`
 * carrying `url_citation` annotations.
 */
export function startFakeOpenAi(): Promise<FakeProvider> {
  return startFakeProvider({
    basePath: "/v1",
    matches: (method, path) => method === "POST" && path === "/v1/responses",
    validate(req: RecordedRequest) {
      if (bearerOf(req) !== FAKE_OPENAI_KEY) return { status: 401, message: "Incorrect API key provided." };
      const body = req.body as { model?: unknown; input?: unknown; tools?: { type?: string }[] };
      if (typeof body?.model !== "string" || body.input === undefined) {
        return { status: 400, message: "Missing required parameter: 'model' or 'input'." };
      }
      return null;
    },
    render: renderResponse,
    renderError: (status, message) => ({
      error: {
        message,
        type: status === 429 ? "requests" : status >= 500 ? "server_error" : "invalid_request_error",
        param: null,
        code: status === 429 ? "rate_limit_exceeded" : null,
      },
    }),
  });
}

function renderResponse(answer: ScriptedAnswer, req: RecordedRequest) {
  const body = req.body as { model: string; input: string; tools?: unknown[] };
  const annotations = (answer.sources ?? []).map((s) => {
    const span = spanOf(answer.text, s.quote);
    return { type: "url_citation", start_index: span.start, end_index: span.end, url: s.url, title: s.title };
  });
  const inputTokens = answer.inputTokens ?? 312;
  const outputTokens = answer.outputTokens ?? 188;
  return {
    id: randomId("resp_"),
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: `${body.model}-2026-04-23`,
    output: [
      {
        type: "web_search_call",
        id: randomId("ws_"),
        status: "completed",
        action: {
          type: "search",
          query: body.input,
          sources: [...(answer.sources ?? []), ...(answer.searchResults ?? [])].map((s) => ({
            type: "url",
            url: s.url,
          })),
        },
      },
      {
        type: "message",
        id: randomId("msg_"),
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: answer.text, annotations, logprobs: [] }],
      },
    ],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: "medium", summary: null },
    service_tier: "default",
    store: false,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: body.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 64 },
      total_tokens: inputTokens + outputTokens,
    },
    user: null,
    metadata: {},
  };
}
