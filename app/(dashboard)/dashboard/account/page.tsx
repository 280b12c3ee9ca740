import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/dashboard/change-password-form";
import { Card, PageHeader } from "@/components/ui/card";
import { requireActor } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage({
  searchParams,
}: {
  searchParams: Promise<{ password?: string | string[] }>;
}) {
  await requireActor();
  const changed = (await searchParams).password === "changed";
  return (
    <>
      <PageHeader
        title="Account"
        description="Your sign-in. Changing the password, or signing out, ends every session of yours on every device."
      />
      <Card title="Password">
        {changed ? (
          <p role="status" className="mb-4 rounded-md bg-emerald-50 p-3 text-sm text-emerald-950">
            Password changed. Every other session has been signed out.
          </p>
        ) : null}
        <ChangePasswordForm />
      </Card>
    </>
  );
}
