"use server";
import { redirect } from "next/navigation";
import { z } from "zod";
import { resetPassword } from "@/lib/dashboard/email-tokens";
import { getDb } from "@/lib/db/client";
import { formFields } from "./client";
import { linkToken, secret } from "./fields";
import { publicAction } from "./safe-action";
import type { ActionState } from "./state";

const input = z.object({ token: linkToken("This reset link is not valid."), password: secret() });

const reset = publicAction(
  { input, refused: (err): ActionState => ({ error: err.message, field: err.field }) },
  async (values): Promise<ActionState> => {
    await resetPassword(await getDb(), values);
    redirect("/login?reset=1");
  },
);

/** Sets a new password from an emailed reset link; every session of the user ends. */
export async function resetPasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return reset(formFields(form));
}
