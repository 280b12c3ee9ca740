import { findRegistrableDomain } from "@/lib/ai-visibility/domains";
import {
  type FakeProvider,
  type RecordedRequest,
  randomId,
  type ScriptedAnswer,
  spanOf,
  startFakeProvider,
} from "./server";

export const FAKE_GEMINI_KEY = "gemini-test-key";

/** Each grounding link the fake handed out, and the page it stands for (the redirect fixture serves these). */
export type RedirectTable = Map<string, string>;

/**
 * The Gemini API as `@google/genai` calls it: POST {base}/v1/models/{model}:generateContent (v1beta on older SDKs) with
 * `x-goog-api-key`, answered with a GenerateContentResponse whose candidate carries `groundingMetadata`:
 * `groundingChunks[].web.{uri,title}` (uri: a vertexaisearch redirect link, title: the site's domain) and
 * `groundingSupports` tying text segments to the cited chunks (the uncited search results are chunks no support
 * points at) and `webSearchQueries`. A request with `generationConfig.responseMimeType: "application/json"` and a
 * schema is a structured-output call: its candidate's text is the JSON.
 */
export function startFakeGemini(redirects: RedirectTable): Promise<FakeProvider> {
  return startFakeProvider({
    basePath: "",
    matches: (method, path) =>
      method === "POST" && /^\/v1(beta)?\/models\/[^/:]+:generateContent$/.test(path),
    validate(req: RecordedRequest) {
      if (req.headers["x-goog-api-key"] !== FAKE_GEMINI_KEY) {
        return { status: 400, message: "API key not valid. Please pass a valid API key." };
      }
      const body = req.body as { contents?: unknown };
      if (!Array.isArray(body?.contents)) return { status: 400, message: "contents is required" };
      return null;
    },
    render: (answer, req) => renderResponse(answer, req, redirects),
    isStructured: (req) => {
      const config = (req.body as { generationConfig?: Record<string, unknown> } | null)?.generationConfig;
      return (
        config?.responseMimeType === "application/json" &&
        (config.responseJsonSchema !== undefined || config.responseSchema !== undefined)
      );
    },
    renderStructured: (reply, req) => {
      const inputTokens = reply.inputTokens ?? 80;
      const outputTokens = reply.outputTokens ?? 10;
      return {
        candidates: [
          {
            content: { parts: [{ text: JSON.stringify(reply.json) }], role: "model" },
            finishReason: "STOP",
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: inputTokens,
          candidatesTokenCount: outputTokens,
          totalTokenCount: inputTokens + outputTokens,
        },
        modelVersion: req.path.match(/models\/([^/:]+):/)?.[1] ?? "gemini",
        responseId: randomId(""),
      };
    },
    renderError: (status, message) => ({
      error: {
        code: status,
        message,
        status:
          status === 429
            ? "RESOURCE_EXHAUSTED"
            : status === 503
              ? "UNAVAILABLE"
              : status >= 500
                ? "INTERNAL"
                : "INVALID_ARGUMENT",
      },
    }),
  });
}

function renderResponse(answer: ScriptedAnswer, req: RecordedRequest, redirects: RedirectTable) {
  const model = req.path.match(/models\/([^/:]+):/)?.[1] ?? "gemini";
  const sources = answer.sources ?? [];
  const chunks = [...sources, ...(answer.searchResults ?? [])].map((s) => {
    const id = randomId("AUZIYQ");
    redirects.set(id, s.url);
    return {
      web: {
        uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${id}`,
        title: findRegistrableDomain(s.url) ?? s.title,
      },
    };
  });
  const supports = sources.map((s, i) => {
    const span = spanOf(answer.text, s.quote);
    return {
      segment: { startIndex: span.start, endIndex: span.end, text: span.text },
      groundingChunkIndices: [i],
    };
  });
  const inputTokens = answer.inputTokens ?? 11;
  const outputTokens = answer.outputTokens ?? 240;
  return {
    candidates: [
      {
        content: { parts: [{ text: answer.text }], role: "model" },
        finishReason: "STOP",
        index: 0,
        groundingMetadata: {
          searchEntryPoint: { renderedContent: '<style>.container{}</style><div class="container">…</div>' },
          groundingChunks: chunks,
          groundingSupports: supports,
          webSearchQueries: answer.queries ?? ["best project management tools 2026"],
        },
      },
    ],
    usageMetadata: {
      promptTokenCount: inputTokens,
      candidatesTokenCount: outputTokens,
      totalTokenCount: inputTokens + outputTokens + 90,
      toolUsePromptTokenCount: 90,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: inputTokens }],
      thoughtsTokenCount: 0,
    },
    modelVersion: model,
    responseId: randomId(""),
  };
}
