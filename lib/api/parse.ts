import type { z } from "zod";
import {
  type FieldIssue,
  findUnsafeText,
  hasUnsafeText,
  parseValue,
  unsafeTextError,
  validationError,
} from "@/lib/errors";
import { readStreamCapped } from "@/lib/streams/read-capped";

export { queryInt } from "@/lib/contract/query";
export { parseValue, requireUuid } from "@/lib/errors";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the body as text, refusing more than 1 MB without buffering it all. */
async function readBody(req: Request): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return "";
  return (await readStreamCapped(req.body, MAX_BODY_BYTES, tooLarge)).toString("utf8");
}

const tooLarge = () =>
  validationError(
    "The request body is larger than 1 MB.",
    [{ field: "body", message: "Larger than 1 MB." }],
    {
      reason: "body_too_large",
      maxBytes: MAX_BODY_BYTES,
    },
  );

/** Parses a JSON body against `schema`: wrong content type, malformed JSON and bad fields are 400s. */
export async function parseJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  return parseValue(schema, await readJson(req));
}

/** A JSON escape of NUL or of a surrogate (paired ones too: the walk then tells them apart). */
const UNSAFE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** The JSON body as sent (wrong content type, over 1 MB or malformed: 400). */
export async function readJson(req: Request): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([a-z0-9.+-]+\+)?json\b/i.test(type.trim())) {
    throw validationError(
      "Send the body as JSON with Content-Type: application/json.",
      [
        {
          field: "content-type",
          message: type ? `Unsupported content type: ${type}.` : "Missing content type.",
        },
      ],
      { reason: "unsupported_content_type" },
    );
  }
  const text = await readBody(req);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw validationError(
      "The request body is not valid JSON.",
      [{ field: "body", message: err instanceof Error ? err.message : "Malformed JSON." }],
      { reason: "malformed_json" },
    );
  }
  // Every JSON body passes here, including those a service validates piece by piece (tracking events). Decoded
  // UTF-8 holds neither a NUL nor a lone surrogate (invalid bytes become U+FFFD, and JSON refuses raw control
  // characters), so parsed text can only hold one through a \u escape: a body without such an escape is not walked.
  // The plain search first: it skips a body without any \u escape several times faster than the pattern does.
  const unsafe = text.includes("\\u") && UNSAFE_ESCAPE.test(text) ? findUnsafeText(value) : null;
  if (unsafe !== null) throw unsafeTextError(unsafe || "body");
  return value;
}

/**
 * Parses query parameters against an object schema. Unknown parameters and repeated ones are refused,
 * so a typo (`?limt=5`) is an error instead of a silently ignored option; those starting with `ignoredPrefix`
 * (when given) are skipped, whatever they hold.
 */
export function parseQuery<S extends z.ZodObject>(url: URL, schema: S, ignoredPrefix?: string): z.output<S> {
  const known = new Set(Object.keys(schema.shape));
  const raw: Record<string, string> = {};
  const issues: FieldIssue[] = [];
  for (const [key, value] of url.searchParams) {
    if (hasUnsafeText(key) || hasUnsafeText(value)) throw unsafeTextError(JSON.stringify(key).slice(1, -1));
    if (ignoredPrefix && key.startsWith(ignoredPrefix) && !known.has(key)) continue;
    if (!known.has(key)) issues.push({ field: key, message: "Unknown query parameter." });
    else if (key in raw) issues.push({ field: key, message: "Given more than once." });
    else raw[key] = value;
  }
  if (issues.length) {
    throw validationError(
      `Invalid query: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
      issues,
    );
  }
  return parseValue(schema, raw);
}

/**
 * Path parameters as the route receives them, refused when one holds NUL (a `%00` in the URL) or an
 * unpaired surrogate: such a value names nothing, and would reach the database otherwise.
 */
export function checkPathParams<P extends Record<string, string | string[]>>(params: P | undefined): P {
  // Next hands a route without dynamic segments no params at all.
  const found = params ?? ({} as P);
  for (const [name, value] of Object.entries(found)) {
    for (const part of Array.isArray(value) ? value : [value]) {
      if (hasUnsafeText(part)) throw unsafeTextError(name);
    }
  }
  return found;
}
