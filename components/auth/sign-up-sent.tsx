"use client";

import { useActionState } from "react";
import { resendSignUpLinkAction } from "@/lib/actions/resend-sign-up-link";

/**
 * The answer to every sign-up, new address or taken: check your email. Its button sends the link again (or,
 * on an expired link's page, a new one for that link's address).
 */
export function SignUpSent({
  email,
  token,
  mailLogged,
  intro = true,
}: {
  email?: string;
  token?: string;
  /** This server writes its mail to the server log instead of sending it. */
  mailLogged?: boolean;
  intro?: boolean;
}) {
  const [state, action, pending] = useActionState(resendSignUpLinkAction, {});
  const to = state.sentTo ?? email;
  return (
    <div className="space-y-4" data-testid="sign-up-sent">
      {intro ? (
        <div role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
          <p className="font-semibold">Check your email</p>
          <p className="mt-1">
            We sent a message to <strong>{to}</strong>. Open the link in it to finish: it creates your account
            and signs you in. The link works once and expires in 24 hours.
          </p>
        </div>
      ) : null}
      {mailLogged ? (
        <p className="text-sm text-slate-700">
          This server does not send email yet: the message is written to the server&apos;s log, where its
          operator can find the link.
        </p>
      ) : null}
      {state.resent ? (
        <p role="status" className="text-sm text-slate-700">
          Sent again to <strong>{to}</strong>. Any of the links works.
        </p>
      ) : null}
      {state.error ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {state.error}
        </p>
      ) : null}
      <form action={action}>
        {token ? <input type="hidden" name="token" value={token} /> : null}
        {!token && email ? <input type="hidden" name="email" value={email} /> : null}
        <button
          type="submit"
          className={intro ? "btn-secondary w-full" : "btn-primary w-full"}
          disabled={pending}
        >
          {pending ? "Please wait…" : intro ? "Send the link again" : "Send me a new link"}
        </button>
      </form>
      {intro ? (
        <p className="text-sm text-slate-600">
          Nothing after a few minutes? Look in your spam folder, or check the address and sign up again.
        </p>
      ) : null}
    </div>
  );
}
