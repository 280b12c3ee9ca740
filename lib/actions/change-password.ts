"use server";
import { headers } from "next/headers";
import { z } from "zod";
import { clientIpFromHeaders } from "@/lib/api/https";
import { signIn } from "@/lib/auth/config";
import { changePassword } from "@/lib/dashboard/change-password";
import { formFields } from "./client";
import { secret } from "./fields";
import { actorAction } from "./safe-action";
import { type ActionState, toActionState } from "./state";

const input = z.object({
  currentPassword: secret(),
  newPassword: secret(),
});

const change = actorAction(
  { input, role: "member", refused: toActionState },
  async ({ db, actor, input }): Promise<ActionState> => {
    const ip = clientIpFromHeaders(await headers());
    const { email } = await changePassword(db, actor.userId, input, { ip });
    // Every session ended with the change, this one too: sign in again with the new password.
    await signIn("credentials", {
      email,
      password: input.newPassword,
      redirectTo: "/dashboard/account?password=changed",
    });
    return { ok: true };
  },
);

/** Replaces the signed-in user's password and signs out every other session. */
export async function changePasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return change(formFields(form));
}
