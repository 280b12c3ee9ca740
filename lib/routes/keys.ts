import { z } from "zod";
import {
  keyCreateInput,
  keyPairList,
  keyPairView,
  keyPairWithSecret,
  keyRollInput,
  keyRollResult,
} from "@/lib/keys/schemas";
import { defineRoute } from "./contract";
import { EXAMPLE_KEY_NAME } from "./examples";

const keyIdParam = {
  name: "id",
  description: "The pair's id (`id` in the list, not the public `sk_live_…` key id).",
  schema: z.uuid(),
  // The webhook examples' id: the Postman collection turns it into {{id}}, which creating a pair sets.
  example: "00000000-0000-4000-8000-000000000001",
  notFound: "Key pair",
} as const;

/** GET /keys: the account's key pairs, never their secrets (free). */
export const listKeysRoute = defineRoute({
  method: "get",
  path: "/keys",
  operationId: "listKeys",
  tag: "Keys",
  summary: "The account's API key pairs",
  description:
    "Every working pair (active, or rolling until its `expiresAt`) and the pairs that stopped in the last 30 days, with each pair's rate limit and last use. Secrets are never shown again.",
  success: { status: 200, description: "The pairs.", data: { name: "KeyPairList", schema: keyPairList } },
  errors: [],
});

/** POST /keys: a new named pair; 201 with its secret, shown once (free). */
export const createKeyRoute = defineRoute({
  method: "post",
  path: "/keys",
  operationId: "createKey",
  tag: "Keys",
  summary: "Create a named key pair",
  description:
    "A new pair beside the others, e.g. one for the tracking snippet and one for CI, so that each can be rolled or revoked alone and has its own rate limit and last-used time. At most 10 working pairs per account; a name is unique among active pairs. The secret is in this answer only.",
  body: { name: "KeyCreateInput", schema: keyCreateInput, example: { name: EXAMPLE_KEY_NAME } },
  success: {
    status: 201,
    description: "The pair, with its secret (shown once).",
    data: { name: "KeyPairWithSecret", schema: keyPairWithSecret },
  },
  errors: ["VALIDATION_ERROR"],
});

/** POST /keys/{id}/roll: a new pair for an active one; the old one works on for the chosen window. */
export const rollKeyRoute = defineRoute({
  method: "post",
  path: "/keys/{id}/roll",
  operationId: "rollKey",
  tag: "Keys",
  summary: "Roll a key pair",
  description:
    "Issues a new pair with the same name and rate limit. The old pair keeps working for `window` (`1h`, `24h` or `7d`) so that every integration can switch without downtime, then is refused on every server at once; with `none` it is revoked at once. Only an active pair can be rolled (a rolling pair's replacement can).",
  pathParams: [keyIdParam],
  body: { name: "KeyRollInput", schema: keyRollInput, example: { window: "24h" } },
  success: {
    status: 200,
    description: "The new pair (with its secret, shown once) and the replaced one.",
    data: { name: "KeyRollResult", schema: keyRollResult },
  },
  errors: ["NOT_FOUND", "VALIDATION_ERROR"],
});

/** DELETE /keys/{id}: revoke a pair at once (free). */
export const revokeKeyRoute = defineRoute({
  method: "delete",
  path: "/keys/{id}",
  operationId: "revokeKey",
  tag: "Keys",
  summary: "Revoke a key pair",
  description:
    "The pair stops working on every server within seconds, whether it is active or rolling. Revoking the pair that makes this request is allowed: its next request is 401.",
  pathParams: [keyIdParam],
  success: { status: 200, description: "The revoked pair.", data: { name: "KeyPair", schema: keyPairView } },
  errors: ["NOT_FOUND"],
});
