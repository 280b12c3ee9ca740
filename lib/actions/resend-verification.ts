"use server";
import { z } from "zod";
import { resendVerificationEmail } from "@/lib/dashboard/email-tokens";
import { actorAction } from "./safe-action";
import { type ActionState, toActionState } from "./state";

const resend = actorAction(
  { input: z.object({}), role: "member", refused: toActionState },
  async ({ db, actor }): Promise<ActionState> => {
    await resendVerificationEmail(db, actor.userId);
    return { ok: true };
  },
);

/** Sends the signed-in user's verification link again. */
export async function resendVerificationAction(_prev: ActionState, _form: FormData): Promise<ActionState> {
  return resend({});
}
