// Wire shapes of the key pairs (client-safe: zod only), shared by the API routes, the dashboard and the docs.
import { z } from "zod";

/** Most active pairs an account may hold (rolling pairs included). */
export const MAX_KEY_PAIRS = 10;

/** How long a rolled pair keeps working beside its replacement. */
export const ROLL_WINDOWS = ["none", "1h", "24h", "7d"] as const;
export type RollWindow = (typeof ROLL_WINDOWS)[number];
export const ROLL_WINDOW_SECONDS: Record<RollWindow, number> = {
  none: 0,
  "1h": 3600,
  "24h": 24 * 3600,
  "7d": 7 * 24 * 3600,
};
export const ROLL_WINDOW_LABELS: Record<RollWindow, string> = {
  none: "Stop the old pair now",
  "1h": "Keep the old pair for 1 hour",
  "24h": "Keep the old pair for 24 hours",
  "7d": "Keep the old pair for 7 days",
};

const keyName = z
  .string()
  .trim()
  .min(1, "Give the pair a name.")
  .max(60, "At most 60 characters.")
  // Letters, digits, spaces and common punctuation: a name is shown in lists and logs, never markup.
  .regex(/^[\p{L}\p{N} ._\-/()#:+@]+$/u, "Letters, digits, spaces and . _ - / ( ) # : + @ only.");

export const keyCreateInput = z.strictObject({
  name: keyName.describe('What the pair is for, e.g. "tracking snippet" or "CI"; unique among active pairs.'),
});

export const keyRollInput = z.strictObject({
  window: z
    .enum(ROLL_WINDOWS)
    .default("none")
    .describe(
      "How long the replaced pair keeps working beside the new one: `none` (it stops at once), `1h`, `24h` or `7d`.",
    ),
});

const KEY_STATES = ["active", "rolling", "expired", "revoked"] as const;

export const keyPairView = z.object({
  id: z.uuid().describe("The pair's id, for roll and revoke."),
  name: z.string(),
  keyId: z.string().describe("The public key id, sent as `x-api-key`."),
  state: z
    .enum(KEY_STATES)
    .describe(
      "`active`; `rolling` (replaced by a roll, still accepted until `expiresAt`); `expired` or `revoked` (refused).",
    ),
  rateLimitPerMinute: z.number().int().describe("Requests per minute this pair may make."),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable().describe("When a rolling pair stops working."),
  revokedAt: z.iso.datetime().nullable(),
  replacedBy: z.string().nullable().describe("The key id of the pair that replaced this one in a roll."),
});
export type KeyPairView = z.infer<typeof keyPairView>;

export const keyPairWithSecret = keyPairView.extend({
  secret: z.string().describe("The secret (`x-api-secret`), shown only in this answer."),
});
export const keyPairList = z.object({ keys: z.array(keyPairView) });
export const keyRollResult = z.object({
  key: keyPairWithSecret.describe("The new pair, with its secret (shown once)."),
  replaced: keyPairView.describe("The pair it replaces: `rolling` until `expiresAt`, or `revoked`."),
});
