import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { signInAction } from "@/lib/actions/sign-in";
import { currentActor } from "@/lib/auth/session";
import { AuthForm } from "../auth-form";
import { OAuthButtons } from "../oauth-buttons";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string }>;
}) {
  const { next, error } = await searchParams;
  // Only a user with an account goes on to the dashboard (else the two pages would redirect to each other).
  if (await currentActor()) redirect(next && /^\/(?![/\\])/.test(next) ? next : "/dashboard");
  return (
    <>
      <h1 className="mb-6 text-xl font-semibold text-slate-900">Sign in to Findable</h1>
      {error === "no-account" ? (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          This sign-in has no Findable account (the provider shared no email address). Sign up with email and
          password instead.
        </p>
      ) : null}
      <AuthForm mode="login" action={signInAction} next={next} />
      <OAuthButtons next={next} />
    </>
  );
}
