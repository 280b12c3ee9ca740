import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeNext } from "@/lib/actions/safe-next";
import { signInAction } from "@/lib/actions/sign-in";
import { currentActor } from "@/lib/auth/session";
import { AuthForm } from "../auth-form";
import { OAuthButtons } from "../oauth-buttons";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string; reset?: string }>;
}) {
  const { next, error, reset } = await searchParams;
  // Only a user with an account goes on to the dashboard (else the two pages would redirect to each other).
  if (await currentActor()) redirect(safeNext(next));
  return (
    <>
      <h1 className="mb-6 text-xl font-semibold text-slate-900">Sign in to Findable</h1>
      {error === "no-account" ? (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          This sign-in has no Findable account (the provider shared no email address). Sign up with email and
          password instead.
        </p>
      ) : null}
      {error === "oauth-replayed" ? (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          This sign-in link was already used. Start the sign-in again.
        </p>
      ) : null}
      {error === "link-expired" ? (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          This verification link has expired or was already used. Sign in and send a new one from the
          dashboard.
        </p>
      ) : null}
      {reset === "1" ? (
        <p role="status" className="mb-4 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
          Your password was changed. Sign in with the new one.
        </p>
      ) : null}
      <AuthForm mode="login" action={signInAction} next={next} />
      <OAuthButtons next={next} />
    </>
  );
}
