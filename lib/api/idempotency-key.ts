import { idempotencyKeySchema } from "@/lib/contract/idempotency-key";
import { AppError } from "@/lib/errors";

/** The request's Idempotency-Key header: undefined when absent, 400 VALIDATION_ERROR naming it when malformed. */
export function readIdempotencyKey(req: Request): string | undefined {
  const key = req.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (!idempotencyKeySchema.safeParse(key).success) {
    throw new AppError("VALIDATION_ERROR", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
      field: "Idempotency-Key",
      issues: [{ field: "Idempotency-Key", message: "1 to 255 visible ASCII characters." }],
    });
  }
  return key;
}
