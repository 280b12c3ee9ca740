"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createKeyPairAs, revokeKeyPairAs, rollKeyPairAs } from "@/lib/dashboard/keys";
import { keyCreateInput, ROLL_WINDOWS } from "@/lib/keys/schemas";
import { id } from "./fields";
import { actorAction } from "./safe-action";
import { type ActionState, type KeyPairResult, toActionState } from "./state";

const refusedPair = (err: Parameters<typeof toActionState>[0]): KeyPairResult => {
  const state = toActionState(err);
  return { ok: false, error: state.error ?? "Refused.", ...(state.field ? { field: state.field } : {}) };
};

const create = actorAction(
  { input: keyCreateInput, role: "admin", refused: refusedPair },
  async ({ db, actor, input }): Promise<KeyPairResult> => {
    const pair = await createKeyPairAs(db, actor, input.name);
    revalidatePath("/dashboard/keys");
    return { ok: true, ...pair };
  },
);

/** A new named key pair (owner or admin); its secret is shown once. */
export async function createKeyPairAction(name: string): Promise<KeyPairResult> {
  return create({ name });
}

const roll = actorAction(
  {
    input: z.strictObject({ id: id("This key pair does not exist."), window: z.enum(ROLL_WINDOWS) }),
    role: "admin",
    refused: refusedPair,
  },
  async ({ db, actor, input }): Promise<KeyPairResult> => {
    const pair = await rollKeyPairAs(db, actor, input.id, input.window);
    revalidatePath("/dashboard/keys");
    return { ok: true, ...pair };
  },
);

/** Rolls a pair (owner or admin): a new pair now, the old one kept for the chosen window. */
export async function rollKeyPairAction(id: string, window: string): Promise<KeyPairResult> {
  return roll({ id, window });
}

const revoke = actorAction(
  {
    input: z.strictObject({ id: id("This key pair does not exist.") }),
    role: "admin",
    refused: toActionState,
  },
  async ({ db, actor, input }): Promise<ActionState> => {
    await revokeKeyPairAs(db, actor, input.id);
    revalidatePath("/dashboard/keys");
    return { ok: true };
  },
);

/** Revokes a pair at once (owner or admin). */
export async function revokeKeyPairAction(id: string): Promise<ActionState> {
  return revoke({ id });
}
