"use client";

import { useActionState } from "react";
import { changePasswordAction } from "@/lib/actions/change-password";
import type { ActionState } from "@/lib/actions/state";

export function ChangePasswordForm() {
  const [state, action, pending] = useActionState<ActionState, FormData>(changePasswordAction, {});
  return (
    <form action={action} className="max-w-md space-y-4">
      <div>
        <label htmlFor="current-password" className="field-label">
          Current password
        </label>
        <input
          id="current-password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          className="field-input"
          aria-invalid={state.field === "currentPassword" || undefined}
        />
      </div>
      <div>
        <label htmlFor="new-password" className="field-label">
          New password <span className="font-normal text-slate-600">(at least 10 characters)</span>
        </label>
        <input
          id="new-password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          minLength={10}
          maxLength={200}
          required
          className="field-input"
          aria-invalid={state.field === "newPassword" || undefined}
        />
      </div>
      {state.error ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {state.error}
        </p>
      ) : null}
      <button type="submit" className="btn-primary" disabled={pending}>
        {pending ? "Changing…" : "Change password"}
      </button>
    </form>
  );
}
