"use client";

import { useActionState } from "react";
import { resendVerificationAction } from "@/lib/actions/resend-verification";

/** Shown while the sign-up bonus waits for the address to be verified. */
export function VerifyEmailBanner({ email, bonus }: { email: string; bonus: number }) {
  const [state, action, pending] = useActionState(resendVerificationAction, {});
  return (
    <section
      aria-label="Address verification"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950"
      data-testid="verify-email-banner"
    >
      <p>
        Verify <strong>{email}</strong> to receive your {bonus} free credits: open the link we emailed you.
      </p>
      <form action={action} className="flex items-center gap-3">
        <button type="submit" className="btn-secondary" disabled={pending || state.ok}>
          {pending ? "Sending…" : state.ok ? "Sent" : "Send the link again"}
        </button>
        <span aria-live="polite">
          {state.ok ? (
            "Check your inbox."
          ) : state.error ? (
            <span className="text-red-800">{state.error}</span>
          ) : null}
        </span>
      </form>
    </section>
  );
}
