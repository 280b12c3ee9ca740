import {
  bearerOf,
  type FakeProvider,
  type RecordedRequest,
  randomId,
  type ScriptedAnswer,
  startFakeProvider,
} from "./server";

export const FAKE_PERPLEXITY_KEY = "pplx-test";

/**
 * Perplexity's Sonar chat completions: POST {base}/chat/completions with a Bearer key, answered with an
 * OpenAI-shaped chat completion plus Sonar's `citations` (URLs, numbered as the text's [n] markers; left out
 * with `withoutCitations`) and `search_results` (title, url, date), the cited sources first.
 */
export function startFakePerplexity(): Promise<FakeProvider> {
  return startFakeProvider({
    basePath: "",
    matches: (method, path) => method === "POST" && path === "/chat/completions",
    validate(req: RecordedRequest) {
      if (bearerOf(req) !== FAKE_PERPLEXITY_KEY) return { status: 401, message: "Invalid API key" };
      const body = req.body as { model?: unknown; messages?: unknown };
      if (typeof body?.model !== "string" || !Array.isArray(body.messages)) {
        return { status: 400, message: "model and messages are required" };
      }
      return null;
    },
    render: renderCompletion,
    isStructured: (req) =>
      (req.body as { response_format?: { type?: string } } | null)?.response_format?.type === "json_schema",
    renderStructured: (reply, req) => {
      const inputTokens = reply.inputTokens ?? 85;
      const outputTokens = reply.outputTokens ?? 11;
      return {
        id: randomId(""),
        model: (req.body as { model: string }).model,
        created: Math.floor(Date.now() / 1000),
        usage: {
          prompt_tokens: inputTokens,
          completion_tokens: outputTokens,
          total_tokens: inputTokens + outputTokens,
          search_context_size: "low",
        },
        citations: [],
        search_results: [],
        object: "chat.completion",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content: JSON.stringify(reply.json) },
          },
        ],
      };
    },
    renderError: (status, message) => ({
      error: { message, type: status === 429 ? "rate_limit_exceeded" : "invalid_request", code: status },
    }),
  });
}

function renderCompletion(answer: ScriptedAnswer, req: RecordedRequest) {
  const body = req.body as { model: string };
  const cited = answer.sources ?? [];
  const all = [...cited, ...(answer.searchResults ?? [])];
  const inputTokens = answer.inputTokens ?? 14;
  const outputTokens = answer.outputTokens ?? 296;
  return {
    id: randomId(""),
    model: body.model,
    created: Math.floor(Date.now() / 1000),
    usage: {
      prompt_tokens: inputTokens,
      completion_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
      search_context_size: "low",
      cost: { input_tokens_cost: 0, output_tokens_cost: 0.004, request_cost: 0.006, total_cost: 0.01 },
    },
    ...(answer.withoutCitations ? {} : { citations: cited.map((s) => s.url) }),
    search_results: all.map((s) => ({
      title: s.title,
      url: s.url,
      date: "2026-10-02",
      last_updated: "2026-11-01",
      snippet: `Snippet from ${s.title}`,
      source: "web",
    })),
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: answer.text },
        delta: { role: "assistant", content: "" },
      },
    ],
  };
}
