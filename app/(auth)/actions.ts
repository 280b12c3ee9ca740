"use server";
// Sign-in, sign-up and sign-out. Server actions are protected against CSRF by Next's Origin check;
// next-auth's own POST routes (OAuth, sign-out) by its CSRF token.
import { AuthError } from "next-auth";
import { SignInThrottled, signIn, signOut } from "@/auth";
import { FormError } from "@/lib/dashboard/errors";
import { signUp } from "@/lib/dashboard/signup";
import { getDb } from "@/lib/db/client";

export interface AuthFormState {
  error?: string;
  field?: string;
}

/** Only same-site paths: "/x" but never "//host" or "/\host". */
function safeNext(value: FormDataEntryValue | null): string {
  const next = typeof value === "string" ? value : "";
  return /^\/(?![/\\])/.test(next) ? next : "/dashboard";
}

export async function signInAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  try {
    await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirectTo: safeNext(form.get("next")),
    });
  } catch (err) {
    if (err instanceof SignInThrottled || (err as { code?: string }).code === "rate_limited") {
      return { error: "Too many sign-in attempts for this address. Wait 15 minutes, then try again." };
    }
    if (err instanceof AuthError) return { error: "Wrong email or password." };
    throw err;
  }
  return {};
}

export async function signUpAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  try {
    await signUp(await getDb(), { email, password, name: String(form.get("name") ?? "") });
  } catch (err) {
    if (err instanceof FormError) return { error: err.message, field: err.field };
    throw err;
  }
  await signIn("credentials", { email, password, redirectTo: safeNext(form.get("next")) });
  return {};
}

export async function oauthSignInAction(form: FormData): Promise<void> {
  const provider = String(form.get("provider"));
  if (provider !== "github" && provider !== "google") return;
  await signIn(provider, { redirectTo: safeNext(form.get("next")) });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/login" });
}
