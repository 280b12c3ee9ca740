import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";

export const metadata: Metadata = { title: "Forgot password" };

export default function ForgotPasswordPage() {
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold text-slate-900">Forgot your password?</h1>
      <p className="mb-6 text-sm text-slate-700">
        Enter the email address you sign in with and we will send you a link to choose a new password.
      </p>
      <ForgotPasswordForm />
      <p className="mt-4 text-center text-sm text-slate-700">
        <Link className="link" href="/login">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
