"use server";
import { headers } from "next/headers";
import { z } from "zod";
import { clientIpFromHeaders } from "@/lib/api/https";
import { signIn } from "@/lib/auth/config";
import { signUp } from "@/lib/dashboard/signup";
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

const createUser = publicAction(
  { input: signUpInput, refused: (err): AuthFormState => ({ error: err.message, field: err.field }) },
  async (input): Promise<AuthFormState> => {
    const ip = clientIpFromHeaders(await headers());
    await signUp(await getDb(), { email: input.email, password: input.password, name: input.name }, { ip });
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
