"use client";

import { useActionState } from "react";
import { requestPasswordResetAction } from "@/lib/actions/request-password-reset";

export function ForgotPasswordForm() {
  const [state, action, pending] = useActionState(requestPasswordResetAction, {});
  if (state.ok) {
    return (
      <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
        If a sign-in exists for that address, we sent it a link to choose a new password. The link expires in
        1 hour.
      </p>
    );
  }
  const emailError = state.field === "email" ? state.error : undefined;
  return (
    <form action={action} className="space-y-4">
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
      {state.error && !emailError ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {state.error}
        </p>
      ) : null}
      <button type="submit" className="btn-primary w-full" disabled={pending}>
        {pending ? "Please wait…" : "Email me a reset link"}
      </button>
    </form>
  );
}
