import type { JsonSchema } from "@/lib/contract/json-schema";
import { type OpenApiDocument, type OpenApiOperation, operationsOf } from "./document";

/** Pure helpers that turn the OpenAPI document into what the API reference page shows. */

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  constraints: string[];
  description: string;
}

export function resolveRef(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  let current = schema ?? {};
  for (let i = 0; i < 10 && typeof current.$ref === "string"; i++) {
    const name = current.$ref.split("/").pop() ?? "";
    current = ((doc.components.schemas ?? {}) as Record<string, JsonSchema>)[name] ?? {};
  }
  return current;
}

export function typeLabel(doc: OpenApiDocument, raw: JsonSchema): string {
  const schema = resolveRef(doc, raw);
  if (typeof raw.$ref === "string") {
    const name = raw.$ref.split("/").pop() ?? "";
    if (schema.type === "object") return name;
  }
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const list = (schema.oneOf ?? schema.anyOf) as JsonSchema[];
    return list.map((s) => typeLabel(doc, s)).join(" | ");
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type as string | undefined);
  if (type === "array") return `array of ${typeLabel(doc, (schema.items as JsonSchema) ?? {})}`;
  if (type === "string" && typeof schema.format === "string") return `string (${schema.format})`;
  return type ?? "any";
}

function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  const add = (key: string, label: string) => {
    if (schema[key] !== undefined) out.push(`${label} ${JSON.stringify(schema[key])}`);
  };
  add("minLength", "min length");
  add("maxLength", "max length");
  add("minimum", "≥");
  add("maximum", "≤");
  add("minItems", "min items");
  add("maxItems", "max items");
  add("pattern", "pattern");
  add("default", "default");
  const items = schema.items as JsonSchema | undefined;
  if (items) {
    for (const c of constraintsOf(items)) out.push(`each item ${c}`);
  }
  if (schema.additionalProperties === false) out.push("no other fields");
  return out;
}

/** The top-level fields of an object schema, one row each. */
export function fieldRows(doc: OpenApiDocument, raw: JsonSchema | undefined): FieldRow[] {
  const schema = resolveRef(doc, raw);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, prop]) => ({
    name,
    type: typeLabel(doc, prop),
    required: required.has(name),
    constraints: constraintsOf(resolveRef(doc, prop)),
    description: typeof prop.description === "string" ? prop.description : "",
  }));
}

/** A curl command for the operation, with its example body and query. */
export function curlExample(path: string, method: string, op: OpenApiOperation, baseUrl: string): string {
  const query = (op.parameters ?? []).filter((p) => p.in === "query" && p.example !== undefined);
  const url = `${baseUrl}${path.replace(/\{(\w+)\}/g, (_m, n: string) => String(op.parameters?.find((p) => p.name === n)?.example ?? `<${n}>`))}${query.length ? `?${query.map((p) => `${p.name}=${encodeURIComponent(String(p.example))}`).join("&")}` : ""}`;
  const lines = [`curl -s${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${url}"`];
  if (op.security === undefined) lines.push(`-H "x-api-key: $KEY"`, `-H "x-api-secret: $SECRET"`);
  const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  if (contentType && media) {
    lines.push(`-H "content-type: ${contentType}"`);
    if (op.operationId === "mcp") lines.push(`-H "accept: application/json, text/event-stream"`);
    const body =
      contentType === "application/json" ? JSON.stringify(media.example) : String(media.example).trim();
    lines.push(`--data '${body.replaceAll("'", "'\\''")}'`);
  }
  return lines.join(" \\\n  ");
}

/** The error codes a response component stands for, e.g. "FORBIDDEN_SCOPE, HTTPS_REQUIRED". */
export function responseSummary(doc: OpenApiDocument, response: Record<string, unknown>): string {
  const ref = response.$ref;
  if (typeof ref === "string") {
    const name = ref.split("/").pop() ?? "";
    const component = (doc.components.responses as Record<string, { description?: string }>)[name];
    return component?.description ?? name;
  }
  return typeof response.description === "string" ? response.description : "";
}

export function operationsByTag(doc: OpenApiDocument) {
  const tags = (doc.tags as { name: string; description?: string }[]) ?? [];
  return tags.map((tag) => ({
    ...tag,
    operations: operationsOf(doc)
      .filter(({ op }) => op.tags.includes(tag.name))
      .map(({ path, method, op, legacy }) => ({ path, method, op, legacy })),
  }));
}
