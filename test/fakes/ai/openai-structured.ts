import { FAKE_OPENAI_KEY } from "./openai";
import { bearerOf, type FakeProvider, type RecordedRequest, randomId, startFakeProvider } from "./server";

export interface StructuredRequestBody {
  model: string;
  input: string;
  text?: { format?: { type?: string; name?: string; schema?: unknown; strict?: boolean } };
}

/**
 * The OpenAI Responses API answering a structured-output request (`text.format` of type json_schema): POST
 * {base}/responses with a Bearer key, answered with a Response whose `message` item's `output_text` is the JSON
 * that `respond` writes from the request, as the model would. Each request takes one queued reply.
 */
export function startFakeOpenAiStructured(
  respond: (body: StructuredRequestBody) => unknown,
): Promise<FakeProvider> {
  return startFakeProvider({
    basePath: "/v1",
    matches: (method, path) => method === "POST" && path === "/v1/responses",
    validate(req: RecordedRequest) {
      if (bearerOf(req) !== FAKE_OPENAI_KEY) return { status: 401, message: "Incorrect API key provided." };
      const body = req.body as StructuredRequestBody;
      if (typeof body?.model !== "string" || typeof body.input !== "string") {
        return { status: 400, message: "Missing required parameter: 'model' or 'input'." };
      }
      const format = body.text?.format;
      if (format?.type !== "json_schema" || !format.name || typeof format.schema !== "object") {
        return { status: 400, message: "Missing required parameter: 'text.format.schema'." };
      }
      return null;
    },
    render(_answer, req) {
      const body = req.body as StructuredRequestBody;
      const text = JSON.stringify(respond(body));
      return {
        id: randomId("resp_"),
        object: "response",
        created_at: Math.floor(Date.now() / 1000),
        status: "completed",
        error: null,
        incomplete_details: null,
        model: `${body.model}-2026-04-23`,
        output: [
          {
            type: "message",
            id: randomId("msg_"),
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text, annotations: [], logprobs: [] }],
          },
        ],
        parallel_tool_calls: true,
        store: false,
        text: { format: body.text?.format },
        tools: [],
        usage: {
          input_tokens: Math.ceil(body.input.length / 4),
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: Math.ceil(text.length / 4),
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: Math.ceil((body.input.length + text.length) / 4),
        },
      };
    },
    // Every request here is structured and answered by `respond` through `render` (one queued reply each).
    isStructured: () => false,
    renderStructured: () => {
      throw new Error("structured replies are rendered by `respond`");
    },
    renderError: (status, message) => ({
      error: {
        message,
        type: status >= 500 ? "server_error" : "invalid_request_error",
        param: null,
        code: null,
      },
    }),
  });
}
