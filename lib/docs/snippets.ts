// Request and response examples for the API reference page: one request per operation, spelled as curl,
// JavaScript (fetch) and Python (requests), and an example response built from the operation's own schema.

import type { JsonSchema } from "@/lib/contract/json-schema";
import type { OpenApiDocument, OpenApiOperation } from "@/lib/openapi/document";
import { resolveRef } from "@/lib/openapi/reference";

export interface RequestSample {
  method: string;
  url: string;
  /** Whether the operation needs the key pair. */
  authenticated: boolean;
  /** The older interface: the key pair goes as `Authorization: Bearer <key>:<secret>`. */
  bearer?: boolean;
  contentType?: string;
  /** The body as sent: JSON text, or the raw text of a non-JSON body. */
  body?: string;
  /** The parsed JSON body, for the language snippets. */
  json?: unknown;
  extraHeaders: Record<string, string>;
}

/** The operation's example request against `baseUrl` (its path parameters and query from the document). */
export function requestSample(
  path: string,
  method: string,
  op: OpenApiOperation,
  baseUrl: string,
): RequestSample {
  const params = op.parameters ?? [];
  const filled = path.replace(/\{(\w+)\}/g, (_m, n: string) =>
    encodeURIComponent(String(params.find((p) => p.name === n)?.example ?? `<${n}>`)),
  );
  const query = params.filter((p) => p.in === "query" && p.example !== undefined);
  const qs = query.map((p) => `${p.name}=${encodeURIComponent(String(p.example))}`).join("&");
  const sample: RequestSample = {
    method: method.toUpperCase(),
    url: `${baseUrl}${filled}${qs ? `?${qs}` : ""}`,
    authenticated: op.security === undefined,
    extraHeaders: {},
  };
  const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  if (contentType && media) {
    sample.contentType = contentType;
    if (op.operationId === "mcp") sample.extraHeaders.accept = "application/json, text/event-stream";
    if (contentType === "application/json") {
      sample.json = media.example ?? {};
      sample.body = JSON.stringify(sample.json);
    } else {
      sample.body = String(media.example ?? "").trim();
    }
  }
  return sample;
}

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** curl, with the customer's key id written out and the secret read from the environment. */
export function curlSnippet(s: RequestSample, keyId: string): string {
  const lines = [`curl -s${s.method === "GET" ? "" : ` -X ${s.method}`} "${s.url}"`];
  if (s.authenticated && s.bearer) lines.push(`-H "Authorization: Bearer ${keyId}:$API_SECRET"`);
  else if (s.authenticated) lines.push(`-H "x-api-key: ${keyId}"`, `-H "x-api-secret: $API_SECRET"`);
  if (s.contentType) lines.push(`-H "content-type: ${s.contentType}"`);
  for (const [k, v] of Object.entries(s.extraHeaders)) lines.push(`-H "${k}: ${v}"`);
  if (s.body !== undefined) lines.push(`--data ${shellQuote(s.body)}`);
  return lines.join(" \\\n  ");
}

function headerLines(s: RequestSample, keyId: string, secret: string, indent: string, sep: string): string[] {
  const headers: [string, string][] = [];
  if (s.authenticated && s.bearer)
    headers.push(["authorization", `${JSON.stringify(`Bearer ${keyId}:`)} + ${secret}`]);
  else if (s.authenticated) headers.push(["x-api-key", JSON.stringify(keyId)], ["x-api-secret", secret]);
  if (s.contentType) headers.push(["content-type", JSON.stringify(s.contentType)]);
  for (const [k, v] of Object.entries(s.extraHeaders)) headers.push([k, JSON.stringify(v)]);
  return headers.map(([k, v]) => `${indent}"${k}"${sep}${v},`);
}

// The customer's code reads its secret from its own environment; spelled in parts so that this server's check of
// the variables it reads (.env.example) does not take it for one of them.
const JS_SECRET = ["process", "env", "API_SECRET"].join(".");
const PY_SECRET = `os.${"environ"}["API_SECRET"]`;

/** JavaScript (Node 18+ or a server runtime; fetch), the secret from the environment. */
export function javascriptSnippet(s: RequestSample, keyId: string): string {
  const out = [`const res = await fetch(${JSON.stringify(s.url)}, {`, `  method: "${s.method}",`];
  const headers = headerLines(s, keyId, JS_SECRET, "    ", ": ");
  if (headers.length) out.push("  headers: {", ...headers, "  },");
  if (s.json !== undefined)
    out.push(`  body: JSON.stringify(${JSON.stringify(s.json, null, 2).replaceAll("\n", "\n  ")}),`);
  else if (s.body !== undefined) out.push(`  body: ${JSON.stringify(s.body)},`);
  out.push(
    "});",
    s.contentType === "application/json" || !s.body
      ? "console.log(await res.json());"
      : "console.log(await res.text());",
  );
  return out.join("\n");
}

function toPython(value: unknown, indent = ""): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${toPython(v, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${toPython(v, inner)},`).join("\n")}\n${indent}}`;
}

/** Python (requests), the secret from os.environ. */
export function pythonSnippet(s: RequestSample, keyId: string): string {
  const out = ["import os", "", "import requests", ""];
  const args = [`    ${JSON.stringify(s.url)},`];
  const headers = headerLines(s, keyId, PY_SECRET, "        ", ": ");
  // requests sets content-type itself for json=
  const shown = s.json !== undefined ? headers.filter((h) => !h.includes('"content-type"')) : headers;
  if (shown.length) args.push("    headers={", ...shown, "    },");
  if (s.json !== undefined) args.push(`    json=${toPython(s.json, "    ")},`);
  else if (s.body !== undefined) args.push(`    data=${JSON.stringify(s.body)},`);
  args.push("    timeout=30,");
  out.push(`res = requests.${s.method.toLowerCase()}(`, ...args, ")");
  out.push(s.contentType === "application/json" || !s.body ? "print(res.json())" : "print(res.text)");
  return out.join("\n");
}

/**
 * An example value for a JSON Schema: its own `example`/`default`/`const`, the first enum value, else a value
 * of its type, object properties filled in (required ones and, within a few levels, the rest).
 */
function exampleFromSchema(doc: OpenApiDocument, raw: JsonSchema | undefined, depth = 0): unknown {
  const schema = resolveRef(doc, raw);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) {
    const first = choices.find((c) => resolveRef(doc, c).type !== "null") ?? choices[0];
    return exampleFromSchema(doc, first, depth);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (depth > 6) return type === "array" ? [] : type === "object" ? {} : null;
  switch (type) {
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(props).map(([k, v]) => [k, exampleFromSchema(doc, v, depth + 1)]),
      );
    }
    case "array":
      return [exampleFromSchema(doc, schema.items as JsonSchema, depth + 1)];
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "string":
      if (schema.format === "date-time") return "2026-11-23T12:00:00.000Z";
      if (schema.format === "uuid") return "7f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
      if (schema.format === "uri") return "https://example.com/";
      return "string";
    default:
      return null;
  }
}

/** The operation's first successful response, as an example body (status and JSON). */
export function responseSample(
  doc: OpenApiDocument,
  op: OpenApiOperation,
): { status: string; body: unknown } | null {
  const entry = Object.entries(op.responses).find(([status]) => status.startsWith("2"));
  if (!entry) return null;
  const [status, response] = entry;
  const content = response.content as Record<string, { schema?: JsonSchema; example?: unknown }> | undefined;
  const media = content?.["application/json"];
  if (!media) return { status, body: null };
  return { status, body: media.example ?? exampleFromSchema(doc, media.schema) };
}
