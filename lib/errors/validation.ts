import type { z } from "zod";
import { AppError, type FieldIssue, validationError } from "./app-error";

/** Zod issues as the envelope's field list ("engines.0", or "body" for the value as a whole). */
export function zodIssues(error: z.ZodError, prefix = ""): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const field = [prefix, path].filter(Boolean).join(".") || (prefix ? prefix : "body");
    return { field, message: issue.message };
  });
}

/** A zod failure as VALIDATION_ERROR naming each field. */
export function zodValidationError(error: z.ZodError, prefix = "", what = "request") {
  const issues = zodIssues(error, prefix);
  return validationError(
    `Invalid ${what}: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
    issues,
  );
}

/** Parses `value` against `schema`, throwing VALIDATION_ERROR that names the fields. */
export function parseValue<S extends z.ZodType>(schema: S, value: unknown, prefix = ""): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw zodValidationError(parsed.error, prefix);
  return parsed.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID cannot name anything: NOT_FOUND, as the spec asks for jobs. */
export function requireUuid(value: string | undefined, what: string): string {
  if (!value || !UUID.test(value)) throw new AppError("NOT_FOUND", `${what} not found.`);
  return value.toLowerCase();
}
