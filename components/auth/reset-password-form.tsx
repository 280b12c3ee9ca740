"use client";

import { useActionState } from "react";
import { resetPasswordAction } from "@/lib/actions/reset-password";

export function ResetPasswordForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState(resetPasswordAction, {});
  const passwordError = state.field === "password" ? state.error : undefined;
  return (
    <form action={action} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      <div>
        <label htmlFor="password" className="field-label">
          New password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          required
          minLength={10}
          autoComplete="new-password"
          className="field-input"
          aria-invalid={passwordError ? true : undefined}
          aria-describedby="password-hint"
        />
        <p id="password-hint" className={passwordError ? "field-error" : "mt-1 text-sm text-slate-600"}>
          {passwordError ?? "At least 10 characters."}
        </p>
      </div>
      {state.error && !passwordError ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {state.error}
        </p>
      ) : null}
      <button type="submit" className="btn-primary w-full" disabled={pending}>
        {pending ? "Please wait…" : "Set new password"}
      </button>
    </form>
  );
}
