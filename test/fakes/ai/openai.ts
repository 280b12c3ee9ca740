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
 * full Response object whose output holds a `web_search_call` item (its `action.sources`, cited and uncited
 * results, only when the request includes `web_search_call.action.sources`, as the real API does) and a
 * `message` item, its `output_text` carrying `url_citation` annotations. A request with
 * `text.format.type: "json_schema"` is a structured-output call: its message text is the scripted JSON.
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
    isStructured: (req) =>
      (req.body as { text?: { format?: { type?: string } } } | null)?.text?.format?.type === "json_schema",
    renderStructured: (reply, req) => {
      const body = req.body as { model: string };
      return {
        ...envelope(body.model, reply.inputTokens ?? 90, reply.outputTokens ?? 12, []),
        output: [
          {
            type: "message",
            id: randomId("msg_"),
            status: "completed",
            role: "assistant",
            content: [
              { type: "output_text", text: JSON.stringify(reply.json), annotations: [], logprobs: [] },
            ],
          },
        ],
      };
    },
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
  const body = req.body as { model: string; input: string; tools?: unknown[]; include?: string[] };
  const withSources = body.include?.includes("web_search_call.action.sources") ?? false;
  const queries = answer.queries ?? [body.input];
  const annotations = (answer.sources ?? []).map((s) => {
    const span = spanOf(answer.text, s.quote);
    return { type: "url_citation", start_index: span.start, end_index: span.end, url: s.url, title: s.title };
  });
  const inputTokens = answer.inputTokens ?? 312;
  const outputTokens = answer.outputTokens ?? 188;
  return {
    ...envelope(body.model, inputTokens, outputTokens, body.tools ?? []),
    output: [
      {
        type: "web_search_call",
        id: randomId("ws_"),
        status: "completed",
        action: {
          type: "search",
          query: queries[0] ?? "",
          queries,
          ...(withSources
            ? {
                sources: [...(answer.sources ?? []), ...(answer.searchResults ?? [])].map((s) => ({
                  type: "url",
                  url: s.url,
                })),
              }
            : {}),
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
  };
}

/** The Response object's fields around its output. */
function envelope(model: string, inputTokens: number, outputTokens: number, tools: unknown[]) {
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
    model: `${model}-2026-04-23`,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: "medium", summary: null },
    service_tier: "default",
    store: false,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools,
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
