"use server";
import { z } from "zod";
import { rotateKeyAs } from "@/lib/dashboard/keys";
import { actorAction } from "./safe-action";
import type { RotateResult } from "./state";

const rotate = actorAction(
  { input: z.object({}), role: "admin", refused: (err): RotateResult => ({ ok: false, error: err.message }) },
  async ({ db, actor }): Promise<RotateResult> => {
    const pair = await rotateKeyAs(db, actor);
    return { ok: true, keyId: pair.keyId, secret: pair.secret, createdAt: pair.createdAt.toISOString() };
  },
);

/** Replaces the account's key pair (owner or admin); the new secret is shown once. */
export async function rotateKeyAction(): Promise<RotateResult> {
  return rotate({});
}
