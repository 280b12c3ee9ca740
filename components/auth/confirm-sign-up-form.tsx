"use client";

import Link from "next/link";
import { useActionState } from "react";
import { confirmSignUpAction } from "@/lib/actions/confirm-sign-up";

/** The emailed link's button: creates the account and signs in (the action redirects on success). */
export function ConfirmSignUpForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState(confirmSignUpAction, {});
  if (state.error) {
    return (
      <div className="space-y-4">
        <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          {state.error}
        </p>
        <Link className="btn-primary block w-full text-center" href="/login">
          Sign in
        </Link>
      </div>
    );
  }
  return (
    <form action={action}>
      <input type="hidden" name="token" value={token} />
      <button type="submit" className="btn-primary w-full" disabled={pending}>
        {pending ? "Please wait…" : "Create my account"}
      </button>
    </form>
  );
}
