"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { SignUpSent } from "@/components/auth/sign-up-sent";
import type { SignUpState } from "@/lib/actions/state";

export function AuthForm({
  mode,
  action,
  next,
  mailLogged,
}: {
  mode: "login" | "signup";
  action: (prev: SignUpState, form: FormData) => Promise<SignUpState>;
  next?: string;
  /** Sign-up: this server writes its mail to the server log (the answer says where the link is). */
  mailLogged?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  // Controlled, so that the address stays in the field after a refused attempt (a form action resets the form).
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const signup = mode === "signup";
  if (signup && state.sentTo) return <SignUpSent email={state.sentTo} mailLogged={mailLogged} />;
  const emailError = state.field === "email" ? state.error : undefined;
  const passwordError = state.field === "password" ? state.error : undefined;
  const formError = state.error && !emailError && !passwordError ? state.error : undefined;
  return (
    <form action={formAction} className="space-y-4" noValidate={false}>
      {next ? <input type="hidden" name="next" value={next} /> : null}
      {signup ? (
        <div>
          <label htmlFor="name" className="field-label">
            Name <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input
            id="name"
            name="name"
            type="text"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className="field-input"
            maxLength={100}
          />
        </div>
      ) : null}
      <div>
        <label htmlFor="email" className="field-label">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="field-input"
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "email-error" : undefined}
        />
        {emailError ? (
          <p id="email-error" className="field-error">
            {emailError}
          </p>
        ) : null}
      </div>
      <div>
        <div className="flex items-baseline justify-between gap-2">
          <label htmlFor="password" className="field-label">
            Password
          </label>
          {signup ? null : (
            <Link className="link text-sm" href="/forgot-password">
              Forgot password?
            </Link>
          )}
        </div>
        <input
          id="password"
          name="password"
          type="password"
          required
          minLength={signup ? 10 : undefined}
          autoComplete={signup ? "new-password" : "current-password"}
          className="field-input"
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={signup ? "password-hint" : undefined}
        />
        {signup ? (
          <p id="password-hint" className={passwordError ? "field-error" : "mt-1 text-sm text-slate-600"}>
            {passwordError ?? "At least 10 characters."}
          </p>
        ) : null}
      </div>
      {formError ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {formError}
        </p>
      ) : null}
      <button type="submit" className="btn-primary w-full" disabled={pending}>
        {pending ? "Please wait…" : signup ? "Create account" : "Sign in"}
      </button>
      <p className="text-center text-sm text-slate-700">
        {signup ? (
          <>
            Already have an account?{" "}
            <Link className="link" href={next ? `/login?next=${encodeURIComponent(next)}` : "/login"}>
              Sign in
            </Link>
          </>
        ) : (
          <>
            New here?{" "}
            <Link className="link" href={next ? `/signup?next=${encodeURIComponent(next)}` : "/signup"}>
              Create an account
            </Link>{" "}
            with 100 free credits once you verify your email address.
          </>
        )}
      </p>
    </form>
  );
}
