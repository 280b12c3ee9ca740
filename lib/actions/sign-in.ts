"use server";
// next-auth's own POST routes (OAuth callbacks, sign-out) carry its CSRF token; these actions go through the
// action client's origin check.
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn } from "@/lib/auth/config";
import { SignInThrottled } from "@/lib/auth/options";
import { formFields } from "./client";
import { line, secret } from "./fields";
import { publicAction } from "./safe-action";
import { safeNext } from "./safe-next";
import type { AuthFormState } from "./state";

const signInInput = z.object({
  email: line(320, "The email address"),
  password: secret(),
  next: z.unknown().optional(),
});

const signInWithPassword = publicAction(
  { input: signInInput, refused: (err): AuthFormState => ({ error: err.message, field: err.field }) },
  async (input): Promise<AuthFormState> => {
    try {
      await signIn("credentials", {
        email: input.email,
        password: input.password,
        redirectTo: safeNext(input.next),
      });
    } catch (err) {
      if (err instanceof SignInThrottled || (err as { code?: string }).code === "rate_limited") {
        return {
          error:
            "Too many failed sign-ins. Wait a minute (longer after each further failure), then try again.",
        };
      }
      if (err instanceof AuthError) return { error: "Wrong email or password." };
      throw err;
    }
    return {};
  },
);

/** Email and password sign-in. */
export async function signInAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  return signInWithPassword(formFields(form));
}
