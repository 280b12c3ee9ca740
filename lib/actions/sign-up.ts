"use server";
import { headers } from "next/headers";
import { z } from "zod";
import { clientIpFromHeaders } from "@/lib/api/https";
import { signIn } from "@/lib/auth/config";
import { signUpOrNotify } from "@/lib/dashboard/signup";
import { getDb } from "@/lib/db/client";
import { formFields } from "./client";
import { line, secret } from "./fields";
import { publicAction } from "./safe-action";
import { safeNext } from "./safe-next";
import type { AuthFormState } from "./state";

// Address, password and name rules are signUp's, which names the field it refuses.
const signUpInput = z.object({
  email: line(320, "The email address"),
  password: secret(),
  name: line(100, "The name"),
  next: z.unknown().optional(),
});

const TAKEN_ANSWER =
  "We sent a message to this address. Follow it to continue: sign in, or choose a new password.";

const createUser = publicAction(
  { input: signUpInput, refused: (err): AuthFormState => ({ error: err.message, field: err.field }) },
  async (input): Promise<AuthFormState> => {
    const ip = clientIpFromHeaders(await headers());
    const created = await signUpOrNotify(
      await getDb(),
      { email: input.email, password: input.password, name: input.name },
      { ip },
    );
    // The address already had a user: its owner was mailed; nothing here says whether it exists.
    if (!created) return { error: TAKEN_ANSWER };
    await signIn("credentials", {
      email: input.email,
      password: input.password,
      redirectTo: safeNext(input.next),
    });
    return {};
  },
);

/** Creates the user and their account, then signs them in. */
export async function signUpAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  return createUser(formFields(form));
}
