import type { Metadata } from "next";
import Link from "next/link";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { isResetTokenOpen } from "@/lib/dashboard/email-tokens";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "Choose a new password" };

export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const token = String((await searchParams).token ?? "").slice(0, 200);
  const open = token ? await isResetTokenOpen(await getDb(), token) : false;
  return (
    <>
      <h1 className="mb-6 text-xl font-semibold text-slate-900">Choose a new password</h1>
      {open ? (
        <ResetPasswordForm token={token} />
      ) : (
        <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          This reset link has expired or was already used.{" "}
          <Link className="link" href="/forgot-password">
            Ask for a new one
          </Link>
          .
        </p>
      )}
    </>
  );
}
