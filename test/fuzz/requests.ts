import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { MCP_TOOLS } from "@/lib/mcp/tools";
import { type FuzzTarget, fillPath } from "./targets";
import { headerValue, jsonValue, malformedBody, nastyString, nearMiss, wrongValue } from "./values";

/** Who a request claims to be; the harness turns it into headers for the run's accounts. */
export type AuthMode = "rich" | "poor" | "limited" | "none" | "wrong-secret" | "garbage" | "bearer";

export interface FuzzRequest {
  /** What the counts are grouped by: the operation's path, "unknown path" or the MCP case. */
  label: string;
  method: string;
  /** Path and query, already encoded. */
  path: string;
  auth: AuthMode;
  headers: Record<string, string>;
  body?: Buffer;
  /** Answered by Node's HTTP parser before any route runs (oversize headers): status only. */
  refusedByServer?: boolean;
}

/**
 * Node refuses a request whose request line and headers exceed 16 KB (431) before any route runs;
 * generated requests stay under that so they reach the handlers (oversizeHeaderRequest covers 431).
 */
const HEADER_BUDGET = 12_000;

/**
 * Cuts a path to `max` characters where the rest stays well-formed: before a query parameter, or
 * before an escape that starts a UTF-8 character (never inside one, which no server could decode).
 */
function shortenPath(path: string, max: number): string {
  const q = path.indexOf("?");
  if (q >= 0 && q < max) {
    const amp = path.lastIndexOf("&", max);
    return path.slice(0, Math.max(amp, q));
  }
  for (let cut = path.lastIndexOf("%", max); cut > 0; cut = path.lastIndexOf("%", cut - 1)) {
    const byte = Number.parseInt(path.slice(cut + 1, cut + 3), 16);
    if (!(byte >= 0x80 && byte < 0xc0)) return path.slice(0, cut);
  }
  return path.slice(0, max);
}

function fitHeaders(
  path: string,
  headers: Record<string, string>,
): { path: string; headers: Record<string, string> } {
  const fitted = path.length > HEADER_BUDGET / 2 ? shortenPath(path, HEADER_BUDGET / 2) : path;
  const out = { ...headers };
  const size = () => Object.entries(out).reduce((n, [k, v]) => n + k.length + v.length + 4, fitted.length);
  while (size() > HEADER_BUDGET) {
    const [longest] = Object.entries(out).sort(([, a], [, b]) => b.length - a.length)[0]!;
    out[longest] = out[longest]!.slice(0, Math.floor(out[longest]!.length / 2));
  }
  return { path: fitted, headers: out };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** URL-encodes any string; a lone surrogate cannot be percent-encoded as UTF-8, so it becomes U+FFFD. */
const encode = (s: string) => encodeURIComponent(s.replace(LONE_SURROGATE, "\ufffd"));

const auth: fc.Arbitrary<AuthMode> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<AuthMode>("rich") },
  { weight: 3, arbitrary: fc.constant<AuthMode>("poor") },
  { weight: 1, arbitrary: fc.constant<AuthMode>("limited") },
  { weight: 2, arbitrary: fc.constant<AuthMode>("none") },
  { weight: 1, arbitrary: fc.constant<AuthMode>("wrong-secret") },
  { weight: 1, arbitrary: fc.constant<AuthMode>("garbage") },
  { weight: 1, arbitrary: fc.constant<AuthMode>("bearer") },
);

/** Headers besides the credentials: idempotency keys, proxy headers, junk. */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      "idempotency-key": fc.oneof(headerValue, fc.uuid()),
      "x-forwarded-host": headerValue,
      "x-forwarded-proto": fc.oneof(headerValue, fc.constantFrom("http", "https", "https, http")),
      "x-forwarded-for": fc.oneof(headerValue, fc.ipV4(), fc.ipV6()),
      "x-request-id": headerValue,
      "mcp-protocol-version": fc.oneof(
        headerValue,
        fc.constantFrom("2025-06-18", "2024-11-05", "1999-01-01"),
      ),
      "x-junk": headerValue,
    },
    { requiredKeys: [] },
  )
  .map(
    (h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>,
  );

const contentType = (usual: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(usual) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        "",
        "application/json; charset=utf-8",
        "application/json; charset=utf-16le",
        "application/json; charset=\u00e9",
        "application/vnd.api+json",
        "text/plain",
        "text/plain; charset=iso-8859-1",
        "application/gzip",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=xyz",
        "application/json;;;",
        "*/*",
      ),
    },
  );

/** A body for `example` (JSON or text): near misses, arbitrary JSON, malformed bytes, compressed garbage. */
function bodyFor(example: unknown): fc.Arbitrary<{ body: Buffer; encoding?: string }> {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v) ?? "null", "utf8");
  const text =
    typeof example === "string"
      ? fc.oneof(
          nastyString.map((s) => Buffer.from(`${example}${s}\n${s}`, "utf8")),
          fc.array(nastyString, { maxLength: 20 }).map((lines) => Buffer.from(lines.join("\n"), "utf8")),
        )
      : fc.oneof(nearMiss((example ?? {}) as Record<string, unknown>).map(json), fc.constant(json(example)));
  return fc.oneof(
    { weight: 6, arbitrary: text.map((body) => ({ body })) },
    { weight: 2, arbitrary: jsonValue.map((v) => ({ body: json(v) })) },
    { weight: 2, arbitrary: malformedBody.map((body) => ({ body })) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        text.map((b) => ({ body: gzipSync(b), encoding: "gzip" })),
        malformedBody.map((body) => ({ body, encoding: "gzip" })),
        fc
          .constantFrom("br", "deflate", "gzip, gzip", "identity", "compress", "\u00e9")
          .chain((encoding) => text.map((body) => ({ body, encoding }))),
      ),
    },
  );
}

/** A query string: the target's parameters with bad values, unknown and repeated ones, raw escapes. */
function queryFor(target: FuzzTarget): fc.Arbitrary<string> {
  const known = Object.keys(target.query?.shape ?? {});
  const key = known.length ? fc.oneof(fc.constantFrom(...known), nastyString) : nastyString;
  const pairs = fc
    .array(
      fc.tuple(key, fc.oneof(nastyString, fc.constantFrom("example.com", "30", "1", "0", "-1", "999999"))),
      {
        maxLength: 6,
      },
    )
    .map((list) => (list.length ? `?${list.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&")}` : ""));
  const raw = fc.constantFrom(
    "?",
    "?&&&",
    "?=",
    "?domain",
    "?domain=%00",
    "?domain=example.com%00",
    "?domain=%ED%A0%80",
    "?domain=%E0%A4%A",
    "?domain=%",
    "?domain=example.com&domain=example.com",
    "?days=1e3&limit=0x10",
    "?limit=%2B5",
    "?cursor=%00",
    "?status=%00",
    "?tool=%ff",
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    { weight: 5, arbitrary: pairs },
    { weight: 2, arbitrary: raw },
  );
}

/** A value for a path parameter: valid-looking, nasty, or encoded NUL and traversal. */
const pathParam: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "example.com",
    "EXAMPLE.COM",
    "other.example",
    "%00",
    "a%00b",
    "..",
    "%2e%2e",
    "a%2Fb",
    "%20",
  ),
  fc.uuid().map((u) => u),
  nastyString.filter((s) => s.length < 2_000).map(encode),
);

/** Requests against one target of the operation list. */
export function targetRequest(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const own = target.methods.map((m) => m.toUpperCase());
  const method = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
  );
  const params = fc.tuple(...target.pathParams.map(() => pathParam));
  return fc
    .record({
      method,
      params,
      query: queryFor(target),
      auth,
      extra: extraHeaders,
      body: bodyFor(target.example),
      type: contentType(target.contentType ?? "application/json"),
    })
    .map(({ method, params, query, auth, extra, body, type }) => {
      const values = Object.fromEntries(target.pathParams.map((name, i) => [name, params[i]!]));
      const sendsBody = method !== "GET" && method !== "HEAD";
      const headers: Record<string, string> = { ...extra };
      if (sendsBody) {
        if (type) headers["content-type"] = type;
        if (body.encoding) headers["content-encoding"] = body.encoding;
      }
      return {
        label: target.path,
        method,
        ...fitHeaders(`${fillPath(target.path, values)}${query}`, headers),
        auth,
        body: sendsBody ? body.body : undefined,
      };
    });
}

/** Paths under /api/v1 where nothing lives, and near misses of real ones. */
export const unknownPathRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    segments: fc.array(nastyString.filter((s) => s.length > 0 && s.length < 300).map(encode), {
      minLength: 1,
      maxLength: 4,
    }),
    prefix: fc.constantFrom("", "jobs/", "domains/a/b/", "tracking/", "Credits/", "mcp/", "openapi.json/"),
    method: fc.constantFrom(...METHODS),
    auth,
    extra: extraHeaders,
  })
  .map(({ segments, prefix, method, auth, extra }) => ({
    label: "(unknown path)",
    method,
    ...fitHeaders(`/api/v1/${prefix}${segments.join("/")}`, extra),
    auth,
    body: method === "GET" || method === "HEAD" ? undefined : Buffer.from("{}"),
  }));

const toolNames = MCP_TOOLS.map((t) => t.name);

const rpcId: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.constantFrom(1e308, -1, 0.5, 2 ** 64, null, true, {}, [], "", "x".repeat(50_000)),
  nastyString,
);

const toolArguments: fc.Arbitrary<unknown> = fc.oneof(
  wrongValue,
  fc.record({ url: wrongValue }),
  fc.record({
    jobId: fc.oneof(nastyString, fc.uuid()),
    timeoutSeconds: fc.oneof(nastyNumberish(), wrongValue),
  }),
  fc.record({ domain: nastyString, days: wrongValue, limit: wrongValue }),
  fc.record({ target: nastyString, idempotencyKey: wrongValue }),
  fc.record({ url: nastyString, engines: wrongValue, brand: nastyString, keyword: nastyString }),
);

function nastyNumberish(): fc.Arbitrary<unknown> {
  return fc.constantFrom(0, -1, 61, 1e9, 0.1, "30", null);
}

/** One JSON-RPC message, from plausible to broken. */
const rpcMessage: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constantFrom("2.0", "1.0", "2", 2, null),
      id: rpcId,
      method: fc.constantFrom(
        "tools/call",
        "tools/call",
        "tools/list",
        "initialize",
        "ping",
        "resources/list",
      ),
      params: fc.record(
        {
          name: fc.oneof(fc.constantFrom(...toolNames), nastyString, wrongValue),
          arguments: toolArguments,
          _meta: fc.record(
            { progressToken: fc.oneof(nastyString, fc.integer(), wrongValue) },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ["method"] },
  ),
  fc.record({ jsonrpc: fc.constant("2.0"), id: rpcId, method: nastyString, params: wrongValue }),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    method: fc.constantFrom("notifications/initialized", "notifications/cancelled", "x"),
  }),
  fc.record({ jsonrpc: fc.constant("2.0"), id: rpcId, result: wrongValue }),
  fc.record({ jsonrpc: fc.constant("2.0"), id: rpcId, error: wrongValue }),
  jsonValue,
);

/** Requests to the MCP endpoint: single messages, batches, malformed bodies, odd headers. */
export const mcpRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    kind: fc.constantFrom("message", "message", "message", "batch", "malformed"),
    message: rpcMessage,
    batch: fc.array(rpcMessage, { maxLength: 12 }),
    malformed: malformedBody,
    accept: fc.oneof(
      { weight: 6, arbitrary: fc.constant("application/json, text/event-stream") },
      {
        weight: 1,
        arbitrary: fc.constantFrom("", "application/json", "text/event-stream", "*/*", "text/html"),
      },
    ),
    type: contentType("application/json"),
    method: fc.oneof(
      { weight: 8, arbitrary: fc.constant("POST") },
      { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
    ),
    auth,
    extra: extraHeaders,
  })
  .map(({ kind, message, batch, malformed, accept, type, method, auth, extra }) => {
    const body =
      kind === "malformed"
        ? malformed
        : Buffer.from(JSON.stringify(kind === "batch" ? batch : message) ?? "null");
    const headers: Record<string, string> = { ...extra, accept };
    if (type) headers["content-type"] = type;
    return {
      label: `/mcp (${kind})`,
      method,
      ...fitHeaders("/api/v1/mcp", headers),
      auth,
      body: method === "GET" || method === "HEAD" ? undefined : body,
    };
  });

/** Headers over Node's limit: the HTTP server itself refuses them (431) before any route runs. */
export const oversizeHeaderRequest: fc.Arbitrary<FuzzRequest> = fc
  .integer({ min: 17_000, max: 40_000 })
  .map((n) => ({
    label: "(oversize headers)",
    method: "GET",
    path: "/api/v1/credits",
    auth: "rich" as const,
    headers: { "x-junk": "k".repeat(n) },
    refusedByServer: true,
  }));
