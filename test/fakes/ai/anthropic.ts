import {
  bearerOf,
  type FakeProvider,
  type RecordedRequest,
  randomId,
  type ScriptedAnswer,
  spanOf,
  startFakeProvider,
} from "./server";

export const FAKE_ANTHROPIC_KEY = "sk-ant-test";

/**
 * The Anthropic Messages API as `@anthropic-ai/sdk` calls it: POST {base}/v1/messages with the key (x-api-key, or
 * a Bearer token as SDK 1.x sends it) and `anthropic-version`, answered with a Message whose content holds one
 * `server_tool_use` search per query, each followed by its `web_search_tool_result` (cited and uncited results,
 * shared among the searches), and text blocks carrying `web_search_result_location` citations. A request with
 * `output_config.format.type: "json_schema"` is a structured-output call: one text block holding the JSON.
 */
export function startFakeAnthropic(): Promise<FakeProvider> {
  return startFakeProvider({
    basePath: "",
    matches: (method, path) => method === "POST" && path === "/v1/messages",
    validate(req: RecordedRequest) {
      // The API takes the key as x-api-key or, as this SDK version sends it, as a Bearer token.
      const key = req.headers["x-api-key"] ?? bearerOf(req);
      if (key !== FAKE_ANTHROPIC_KEY) return { status: 401, message: "invalid x-api-key" };
      if (!/^\d{4}-\d{2}-\d{2}$/.test(String(req.headers["anthropic-version"] ?? ""))) {
        return { status: 400, message: "anthropic-version header is required" };
      }
      const body = req.body as { model?: unknown; max_tokens?: unknown; messages?: unknown };
      if (
        typeof body?.model !== "string" ||
        typeof body.max_tokens !== "number" ||
        !Array.isArray(body.messages)
      ) {
        return { status: 400, message: "model, max_tokens and messages are required" };
      }
      return null;
    },
    render: renderMessage,
    isStructured: (req) =>
      (req.body as { output_config?: { format?: { type?: string } } } | null)?.output_config?.format?.type ===
      "json_schema",
    renderStructured: (reply, req) => ({
      id: randomId("msg_"),
      type: "message",
      role: "assistant",
      model: (req.body as { model: string }).model,
      content: [{ type: "text", text: JSON.stringify(reply.json) }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: reply.inputTokens ?? 95,
        output_tokens: reply.outputTokens ?? 14,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        service_tier: "standard",
      },
    }),
    renderError: (status, message) => ({
      type: "error",
      error: {
        type:
          status === 429
            ? "rate_limit_error"
            : status === 529
              ? "overloaded_error"
              : status >= 500
                ? "api_error"
                : status === 401
                  ? "authentication_error"
                  : "invalid_request_error",
        message,
      },
    }),
  });
}

function renderMessage(answer: ScriptedAnswer, req: RecordedRequest) {
  const body = req.body as { model: string; messages: { content: unknown }[] };
  const cited = answer.sources ?? [];
  const results = [...cited, ...(answer.searchResults ?? [])].map((s) => ({
    type: "web_search_result",
    url: s.url,
    title: s.title,
    encrypted_content: Buffer.from(`content of ${s.url}`).toString("base64"),
    page_age: "October 2, 2026",
  }));
  // Claude interleaves plain text with cited text blocks; the whole answer is their concatenation.
  const blocks: unknown[] = [];
  let at = 0;
  const spans = cited
    .map((s) => ({ source: s, span: spanOf(answer.text, s.quote) }))
    .sort((a, b) => a.span.start - b.span.start);
  for (const { source, span } of spans) {
    if (span.start < at) continue;
    if (span.start > at) blocks.push({ type: "text", text: answer.text.slice(at, span.start) });
    blocks.push({
      type: "text",
      text: span.text,
      citations: [
        {
          type: "web_search_result_location",
          url: source.url,
          title: source.title,
          encrypted_index: Buffer.from(source.url).toString("base64"),
          cited_text: span.text.slice(0, 150),
        },
      ],
    });
    at = span.end;
  }
  if (at < answer.text.length) blocks.push({ type: "text", text: answer.text.slice(at) });
  const prompt = typeof body.messages[0]?.content === "string" ? body.messages[0].content : "query";
  // Each search is a server_tool_use block and its result block; the results are split among the searches.
  const queries = answer.queries ?? [prompt];
  const searchBlocks = queries.flatMap((query, i) => {
    const id = randomId("srvtoolu_");
    const share = results.filter((_, j) => j % queries.length === i);
    return [
      { type: "server_tool_use", id, name: "web_search", input: { query } },
      { type: "web_search_tool_result", tool_use_id: id, content: share },
    ];
  });
  return {
    id: randomId("msg_"),
    type: "message",
    role: "assistant",
    model: body.model,
    content: [...searchBlocks, ...blocks],
    stop_reason: answer.stopReason ?? "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: answer.inputTokens ?? 2_140,
      output_tokens: answer.outputTokens ?? 402,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      server_tool_use: { web_search_requests: queries.length },
      service_tier: "standard",
    },
  };
}
