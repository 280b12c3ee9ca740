// The zod pieces every action's input is built from, with the API's rules: no NUL, no control characters in a
// one-line field, no unpaired surrogate, a bounded length, and ids that are UUIDs before they reach a query.
import { z } from "zod";
import { hasUnsafeText } from "@/lib/errors";

// C0 controls and DEL; a one-line field has no use for a tab or a line break either.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A one-line text field of at most `max` characters (an absent field is ""). */
export function line(max: number, label = "This field") {
  return z
    .string({ error: `${label} must be text.` })
    .max(max, `${label} is too long (at most ${max} characters).`)
    .refine(
      (v) => !CONTROL.test(v) && !hasUnsafeText(v),
      `${label} contains characters that are not allowed.`,
    )
    .default("");
}

/** A password or pasted secret: any printable text, a bounded length, never NUL or an unpaired surrogate. */
export function secret(max = 1000, label = "The password") {
  return z
    .string({ error: `${label} must be text.` })
    .max(max, `${label} is too long (at most ${max} characters).`)
    .refine((v) => !hasUnsafeText(v), `${label} contains characters that are not allowed.`)
    .default("");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id of a row; anything that is not a UUID cannot name one, and says so as `message`. */
export function id(message: string) {
  return z
    .string({ error: message })
    .regex(UUID, message)
    .transform((v) => v.toLowerCase());
}

/** An opaque token from a link (invitations, password resets): base64url, bounded. */
export function linkToken(message = "This link is not valid.") {
  return z
    .string({ error: message })
    .max(200, message)
    .regex(/^[A-Za-z0-9_-]*$/, message)
    .default("");
}
