import type { Metadata } from "next";
import Link from "next/link";
import { ConfirmSignUpForm } from "@/components/auth/confirm-sign-up-form";
import { SignUpSent } from "@/components/auth/sign-up-sent";
import { SIGN_UP_LINK_MESSAGES, signUpLinkStatus } from "@/lib/dashboard/sign-up-links";
import { getDb } from "@/lib/db/client";
import { defaultMailer } from "@/lib/providers/smtp/mailer";

export const metadata: Metadata = { title: "Finish signing up" };

// GET /signup/confirm?token=…: the emailed sign-up link. Opening it changes nothing (mail scanners open links
// too); its button creates the account and signs in. A link that cannot do that says why, with the way on.
export default async function ConfirmSignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const raw = (await searchParams).token;
  const token = (typeof raw === "string" ? raw : "").slice(0, 200);
  const { status, email } = /^[A-Za-z0-9_-]+$/.test(token)
    ? await signUpLinkStatus(await getDb(), token)
    : { status: "invalid" as const, email: undefined };
  if (status === "open") {
    return (
      <>
        <h1 className="text-xl font-semibold text-slate-900">Finish signing up</h1>
        <p className="mb-6 mt-1 text-sm text-slate-700">
          Create the account for <strong>{email}</strong> and sign in. It starts with 100 free credits.
        </p>
        <ConfirmSignUpForm token={token} />
      </>
    );
  }
  const signIn = (
    <Link className="btn-primary block w-full text-center" href="/login">
      Sign in
    </Link>
  );
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold text-slate-900">
        {status === "expired"
          ? "This link has expired"
          : status === "invalid"
            ? "This link is not valid"
            : "You already have an account"}
      </h1>
      <p role="alert" className="mb-6 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
        {SIGN_UP_LINK_MESSAGES[status]}
      </p>
      {status === "expired" ? (
        <SignUpSent token={token} intro={false} mailLogged={defaultMailer().kind === "log"} />
      ) : null}
      {status === "used" ? signIn : null}
      {status === "taken" ? (
        <div className="space-y-3">
          {signIn}
          <p className="text-center text-sm">
            <Link className="link" href="/forgot-password">
              Choose a new password
            </Link>
          </p>
        </div>
      ) : null}
      {status === "invalid" ? (
        <Link className="btn-primary block w-full text-center" href="/signup">
          Sign up again
        </Link>
      ) : null}
    </>
  );
}
