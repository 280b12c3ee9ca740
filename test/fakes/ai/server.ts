import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request a fake provider received, as the SDK sent it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

/** What an engine should answer: its text and the sources it attaches. */
export interface ScriptedAnswer {
  text: string;
  /** `quote`: the answer text the source supports (defaults to the first sentence). */
  sources?: { url: string; title: string; quote?: string }[];
  /** Search results the engine read but did not cite (providers that report them). */
  searchResults?: { url: string; title: string }[];
  /** The searches the engine reports running (default: one, the prompt); Perplexity reports none. */
  queries?: string[];
  inputTokens?: number;
  outputTokens?: number;
  /** Anthropic only: `pause_turn` makes the adapter continue the turn. */
  stopReason?: string;
  /** Perplexity only: answer without the `citations` field, as Sonar responses that carry only `search_results`. */
  withoutCitations?: boolean;
}

/** `delayMs` holds the reply back, as a slow provider would. */
type ScriptedReply =
  | { answer: ScriptedAnswer; delayMs?: number }
  | { status: number; headers?: Record<string, string>; message?: string; delayMs?: number };

/** A structured-output reply: the JSON object the model returns, or an error. */
export type StructuredReply =
  | { json: unknown; inputTokens?: number; outputTokens?: number; delayMs?: number }
  | { status: number; headers?: Record<string, string>; message?: string; delayMs?: number };

export interface FakeProvider {
  /** Base URL to put in `<PROVIDER>_BASE_URL`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies, answered in order; a request beyond the queue gets a 500 naming the gap. */
  enqueue(...replies: ScriptedReply[]): void;
  /**
   * Queues replies to structured-output requests (a JSON schema in the request), kept apart from answers so a
   * sentiment judgement never takes an answer's place. Beyond the queue the responder answers, if set; else a 500.
   */
  enqueueStructured(...replies: StructuredReply[]): void;
  /** Answers structured-output requests once the queue is empty (null clears it). */
  respondStructured(responder: ((req: RecordedRequest) => StructuredReply) | null): void;
  /** The structured-output requests received, as sent. */
  structuredRequests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ProviderFormat {
  /** Path prefix the SDK appends to the base URL (e.g. `/v1`), and the request paths answered. */
  basePath: string;
  matches(method: string, path: string): boolean;
  /** Rejects a request the real provider would reject (auth header, required fields); returns an error reply. */
  validate(req: RecordedRequest): ScriptedReply | null;
  render(answer: ScriptedAnswer, req: RecordedRequest): unknown;
  renderError(status: number, message: string): unknown;
  /** Whether the request asks for structured output (the provider's JSON schema field is set). */
  isStructured(req: RecordedRequest): boolean;
  /** The provider's response carrying `json` as the model's structured output. */
  renderStructured(
    reply: { json: unknown; inputTokens?: number; outputTokens?: number },
    req: RecordedRequest,
  ): unknown;
}

export async function startFakeProvider(format: ProviderFormat): Promise<FakeProvider> {
  const queue: ScriptedReply[] = [];
  const structuredQueue: StructuredReply[] = [];
  let responder: ((req: RecordedRequest) => StructuredReply) | null = null;
  const requests: RecordedRequest[] = [];
  const structuredRequests: RecordedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      headers: req.headers,
      body: raw ? JSON.parse(raw) : null,
    };
    requests.push(recorded);
    if (!format.matches(recorded.method, recorded.path)) {
      return send(res, 404, {}, format.renderError(404, `No route ${recorded.method} ${recorded.path}`));
    }
    const invalid = format.validate(recorded);
    if (!invalid && format.isStructured(recorded)) {
      structuredRequests.push(recorded);
      const reply = structuredQueue.shift() ??
        responder?.(recorded) ?? { status: 500, message: "The fake has no structured reply scripted." };
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (res.destroyed || req.socket.destroyed) return;
      if ("json" in reply) return send(res, 200, {}, format.renderStructured(reply, recorded));
      return send(
        res,
        reply.status,
        reply.headers ?? {},
        format.renderError(reply.status, reply.message ?? "Scripted error."),
      );
    }
    const reply = invalid ??
      queue.shift() ?? { status: 500, message: "The fake has no scripted reply left." };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed || req.socket.destroyed) return;
    if ("answer" in reply) return send(res, 200, {}, format.render(reply.answer, recorded));
    send(
      res,
      reply.status,
      reply.headers ?? {},
      format.renderError(reply.status, reply.message ?? "Scripted error."),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${format.basePath}`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    enqueueStructured: (...replies) => structuredQueue.push(...replies),
    respondStructured: (next) => {
      responder = next;
    },
    structuredRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** The span of `quote` in `text` (the first sentence when absent). */
export function spanOf(text: string, quote?: string): { start: number; end: number; text: string } {
  const wanted = quote ?? text.split(/(?<=[.!?])\s/)[0] ?? text;
  const start = Math.max(0, text.indexOf(wanted));
  return { start, end: start + wanted.length, text: text.slice(start, start + wanted.length) };
}

export function bearerOf(req: RecordedRequest): string | undefined {
  const auth = req.headers.authorization;
  return typeof auth === "string" && auth.startsWith("Bearer ") ? auth.slice(7) : undefined;
}

export function randomId(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 14)}${Math.random().toString(36).slice(2, 14)}`;
}
