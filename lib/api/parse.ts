import { z } from "zod";
import { ApiError, type FieldIssue, validationError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

export function zodIssues(error: z.ZodError, prefix = ""): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const field = [prefix, path].filter(Boolean).join(".") || (prefix ? prefix : "body");
    return { field, message: issue.message };
  });
}

/** Reads a stream whole, refusing (with `onTooLarge`'s error) as soon as it passes `max` bytes. */
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  onTooLarge: () => Error,
): Promise<Buffer> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw onTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

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
  return value;
}

export function parseValue<S extends z.ZodType>(schema: S, value: unknown, prefix = ""): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error, prefix);
    throw validationError(
      `Invalid request: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
      issues,
    );
  }
  return parsed.data;
}

/**
 * Parses query parameters against an object schema. Unknown parameters and repeated ones are refused,
 * so a typo (`?limt=5`) is an error instead of a silently ignored option.
 */
export function parseQuery<S extends z.ZodObject>(url: URL, schema: S): z.output<S> {
  const known = new Set(Object.keys(schema.shape));
  const raw: Record<string, string> = {};
  const issues: FieldIssue[] = [];
  for (const [key, value] of url.searchParams) {
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

/** Integer query parameter with bounds; the spec's limits are enforced, never silently clamped. */
export const queryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, "Must be a whole number.")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID cannot name anything: NOT_FOUND, as the spec asks for jobs. */
export function requireUuid(value: string | undefined, what: string): string {
  if (!value || !UUID.test(value)) throw new ApiError("NOT_FOUND", `${what} not found.`);
  return value.toLowerCase();
}
