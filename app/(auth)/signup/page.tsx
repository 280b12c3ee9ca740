import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { signUpAction } from "@/lib/actions/sign-up";
import { currentActor } from "@/lib/auth/session";
import { defaultMailer } from "@/lib/providers/smtp/mailer";
import { AuthForm } from "../auth-form";
import { OAuthButtons } from "../oauth-buttons";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  if (await currentActor()) redirect("/dashboard");
  return (
    <>
      <h1 className="text-xl font-semibold text-slate-900">Create your account</h1>
      <p className="mb-6 mt-1 text-sm text-slate-600">You start with 100 free credits.</p>
      <AuthForm mode="signup" action={signUpAction} next={next} mailLogged={defaultMailer().kind === "log"} />
      <OAuthButtons next={next} />
    </>
  );
}
