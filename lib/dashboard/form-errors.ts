// Service refusals as form errors: the dashboard shows a refused value next to its field, never a 500.
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { FormError } from "./errors";

/** Runs a service call; its AppError (a 400, 402, 403 or 404 of the API) becomes a FormError with its field. */
export async function asForm<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) {
      const field = typeof err.details.field === "string" ? err.details.field : undefined;
      throw new FormError(err.message, field);
    }
    throw err;
  }
}

/** Parses with the API's schema; the first issue is a FormError naming its field (`schedule.hour`). */
export function parseForm<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new FormError(issue?.message ?? "Invalid input.", issue?.path.map(String).join(".") || undefined);
}
