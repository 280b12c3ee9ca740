"use server";
import { headers } from "next/headers";
import { z } from "zod";
import { clientIpFromHeaders } from "@/lib/api/https";
import { requestSignUp } from "@/lib/dashboard/sign-up-links";
import { getDb } from "@/lib/db/client";
import { formFields } from "./client";
import { line, secret } from "./fields";
import { publicAction } from "./safe-action";
import { safeNext } from "./safe-next";
import type { SignUpState } from "./state";

// Address, password and name rules are requestSignUp's, which names the field it refuses.
const signUpInput = z.object({
  email: line(320, "The email address"),
  password: secret(),
  name: line(100, "The name"),
  next: z.unknown().optional(),
});

const createUser = publicAction(
  { input: signUpInput, refused: (err): SignUpState => ({ error: err.message, field: err.field }) },
  async (input): Promise<SignUpState> => {
    const ip = clientIpFromHeaders(await headers());
    const next = input.next === undefined || input.next === "" ? undefined : safeNext(input.next);
    const { email } = await requestSignUp(
      await getDb(),
      { email: input.email, password: input.password, name: input.name },
      { ip, next },
    );
    // The same answer whether the address has an account or not: the mail says which.
    return { sentTo: email };
  },
);

/** Sign-up: emails a link that creates the account and signs in (or, for a taken address, tells its owner). */
export async function signUpAction(_prev: SignUpState, form: FormData): Promise<SignUpState> {
  return createUser(formFields(form));
}
