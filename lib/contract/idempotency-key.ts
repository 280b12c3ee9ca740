import { z } from "zod";

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** An idempotency key: 1 to 255 visible ASCII characters (the header and the MCP argument alike). */
export const idempotencyKeySchema = z
  .string({ error: "Must be a string." })
  .regex(IDEMPOTENCY_KEY, { error: "1 to 255 visible ASCII characters." });
