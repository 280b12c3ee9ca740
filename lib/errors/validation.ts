import type { z } from "zod";
import { AppError, type FieldIssue, validationError } from "./app-error";

/**
 * Zod issues as the envelope's field list ("engines.0", or "body" for the value as a whole). Given the value
 * that was parsed, a field it does not have says "Required." whatever the schema's own words for a wrong type
 * ("Must be a string."): the client left it out rather than sent it wrong.
 */
function zodIssues(error: z.ZodError, prefix = "", input?: { value: unknown }): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const field = [prefix, path].filter(Boolean).join(".") || (prefix ? prefix : "body");
    const missing =
      input !== undefined && MISSING_CODES.has(issue.code) && isMissing(input.value, issue.path);
    return { field, message: missing ? "Required." : issue.message };
  });
}

const MISSING_CODES = new Set<string>(["invalid_type", "invalid_value", "invalid_union"]);

/** Is there nothing at `path` in `value` (an absent key, or undefined)? */
function isMissing(value: unknown, path: readonly PropertyKey[]): boolean {
  let at: unknown = value;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return false;
    if (!Object.hasOwn(at, key)) return true;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at === undefined;
}

/** A zod failure as VALIDATION_ERROR naming each field (missing ones "Required.", given `input`). */
export function zodValidationError(
  error: z.ZodError,
  prefix = "",
  what = "request",
  input?: { value: unknown },
) {
  const issues = zodIssues(error, prefix, input);
  return validationError(
    `Invalid ${what}: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
    issues,
  );
}

// NUL and unpaired UTF-16 surrogates: no field means them, and Postgres refuses both in text and jsonb,
// so letting one through turns a bad input into a failed insert (a 500) deep in a service.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const hasUnsafeText = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);

/**
 * The path ("events.3.userAgent") of the first string, or object key, holding NUL or an unpaired
 * surrogate; null when there is none. Walks with its own stack, so any nesting JSON.parse accepts is fine.
 */
export function findUnsafeText(value: unknown): string | null {
  // Nearly every body is clean: check it without building a path per value (a 1000-event tracking batch has
  // some 9000 of them), and walk again with paths only to name the one that is not.
  return anyUnsafeText(value) ? unsafeTextPath(value) : null;
}

function anyUnsafeText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (hasUnsafeText(v)) return true;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
    } else if (typeof v === "object" && v !== null) {
      for (const key of Object.keys(v)) {
        if (hasUnsafeText(key)) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

function unsafeTextPath(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (hasUnsafeText(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: join(path, String(i)) });
    } else if (typeof v === "object" && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        if (hasUnsafeText(key)) return join(path, JSON.stringify(key).slice(1, -1));
        stack.push({ value: item, path: join(path, key) });
      }
    }
  }
  return null;
}

const join = (path: string, part: string) => (path ? `${path}.${part}` : part);

/** VALIDATION_ERROR for text with NUL or an unpaired surrogate at `field` (a deep path is shortened). */
export function unsafeTextError(path: string) {
  const field = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return validationError(
    `Invalid request: ${field}: contains a NUL character or an unpaired UTF-16 surrogate.`,
    [{ field, message: "Contains a NUL character or an unpaired UTF-16 surrogate." }],
    { reason: "unsafe_characters" },
  );
}

/** Parses `value` against `schema`, throwing VALIDATION_ERROR that names the fields. */
export function parseValue<S extends z.ZodType>(schema: S, value: unknown, prefix = ""): z.output<S> {
  const unsafe = findUnsafeText(value);
  if (unsafe !== null) throw unsafeTextError([prefix, unsafe].filter(Boolean).join(".") || prefix || "body");
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw zodValidationError(parsed.error, prefix, "request", { value });
  return parsed.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID cannot name anything: NOT_FOUND, as the spec asks for jobs. */
export function requireUuid(value: string | undefined, what: string): string {
  if (!value || !UUID.test(value)) throw new AppError("NOT_FOUND", `${what} not found.`);
  return value.toLowerCase();
}
