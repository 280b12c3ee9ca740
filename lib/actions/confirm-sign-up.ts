"use server";
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn } from "@/lib/auth/config";
import { SIGN_UP_LINK_PROVIDER } from "@/lib/auth/options";
import { SIGN_UP_LINK_MESSAGES, signUpLinkStatus } from "@/lib/dashboard/sign-up-links";
import { getDb } from "@/lib/db/client";
import { formFields } from "./client";
import { linkToken } from "./fields";
import { publicAction } from "./safe-action";
import { safeNext } from "./safe-next";
import type { ActionState } from "./state";

const input = z.object({ token: linkToken(SIGN_UP_LINK_MESSAGES.invalid) });

const confirm = publicAction(
  { input, refused: (err): ActionState => ({ error: err.message, field: err.field }) },
  async ({ token }): Promise<ActionState> => {
    const db = await getDb();
    const before = await signUpLinkStatus(db, token);
    if (before.status !== "open") return { error: SIGN_UP_LINK_MESSAGES[before.status] };
    try {
      // Creates the account from the link and signs it in; redirects to where the sign-up was heading.
      await signIn(SIGN_UP_LINK_PROVIDER, { token, redirectTo: safeNext(before.next) });
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      // Another tab used the link meanwhile, or it expired in between: say which.
      const after = await signUpLinkStatus(db, token);
      return { error: SIGN_UP_LINK_MESSAGES[after.status === "open" ? "invalid" : after.status] };
    }
    return {};
  },
);

/** The button on an emailed sign-up link's page: creates the account and signs its owner in. */
export async function confirmSignUpAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return confirm(formFields(form));
}
