import type { Metadata } from "next";
import Link from "next/link";
import { auth } from "@/auth";
import { acceptInviteAction } from "@/lib/actions/accept-invite";
import { findOpenInvite } from "@/lib/dashboard/invites";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "Invitation" };

export default async function InvitePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ error?: string }>;
}) {
  const { token } = await params;
  const { error } = await searchParams;
  const open = token.length <= 100 ? await findOpenInvite(await getDb(), token) : null;
  if (!open || error) {
    return (
      <>
        <h1 className="text-xl font-semibold text-slate-900">Invitation not valid</h1>
        <p className="mt-2 text-sm text-slate-700">
          This invite link has expired or was already used. Ask the account owner for a new one.
        </p>
      </>
    );
  }
  const signedIn = Boolean((await auth())?.user?.id);
  const next = `/invite/${token}`;
  return (
    <>
      <h1 className="text-xl font-semibold text-slate-900">Join {open.accountName}</h1>
      <p className="mt-2 text-sm text-slate-700">
        You are invited as <strong>{open.invite.role}</strong>.
      </p>
      {signedIn ? (
        <form action={acceptInviteAction} className="mt-6">
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="btn-primary w-full">
            Accept the invitation
          </button>
        </form>
      ) : (
        <div className="mt-6 space-y-2">
          <Link href={`/signup?next=${encodeURIComponent(next)}`} className="btn-primary w-full">
            Create an account to join
          </Link>
          <Link href={`/login?next=${encodeURIComponent(next)}`} className="btn-secondary w-full py-2">
            I already have an account
          </Link>
        </div>
      )}
    </>
  );
}
