import type { Metadata } from "next";
import Link from "next/link";
import { auth } from "@/auth";
import { acceptInviteAction } from "@/lib/actions/accept-invite";
import { findOpenInvite, inviteIsFor } from "@/lib/dashboard/invites";
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
  const db = await getDb();
  const open = token.length <= 100 ? await findOpenInvite(db, token) : null;
  const userId = (await auth())?.user?.id;
  if (
    open &&
    (error === "other-address" || (userId && !(await inviteIsFor(db, userId, open.invite.email))))
  ) {
    return (
      <>
        <h1 className="text-xl font-semibold text-slate-900">This invitation is for another address</h1>
        <p role="alert" className="mt-2 text-sm text-slate-700">
          It was sent to another email address than the one you are signed in with. Sign out and sign in with
          the invited address to accept it, or ask the account owner for an invitation to yours.
        </p>
      </>
    );
  }
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
  const signedIn = Boolean(userId);
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
