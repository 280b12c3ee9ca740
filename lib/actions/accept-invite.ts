"use server";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { auth } from "@/lib/auth/config";
import { ACCOUNT_COOKIE, accountCookieOptions } from "@/lib/auth/session";
import { FormError } from "@/lib/dashboard/errors";
import { acceptInvite, InviteForAnotherAddress } from "@/lib/dashboard/invites";
import { getDb } from "@/lib/db/client";
import { formFields } from "./client";
import { linkToken } from "./fields";
import { publicAction } from "./safe-action";

const acceptInviteInput = z.object({ token: linkToken("This invite link is not valid.") });

// Public: a visitor without a session is sent to sign in and brought back to the invitation.
const accept = publicAction(
  { input: acceptInviteInput, refused: () => null },
  async ({ token }): Promise<string> => {
    const userId = (await auth())?.user?.id;
    if (!userId) redirect(`/login?next=${encodeURIComponent(`/invite/${token}`)}`);
    try {
      return (await acceptInvite(await getDb(), userId, token)).accountId;
    } catch (err) {
      if (err instanceof InviteForAnotherAddress) {
        redirect(`/invite/${encodeURIComponent(token)}?error=other-address`);
      }
      if (err instanceof FormError) redirect(`/invite/${encodeURIComponent(token)}?error=used`);
      throw err;
    }
  },
);

/** Joins the invitation's account and makes it the active one. */
export async function acceptInviteAction(form: FormData): Promise<void> {
  const accountId = await accept(formFields(form));
  if (accountId) (await cookies()).set(ACCOUNT_COOKIE, accountId, accountCookieOptions());
  redirect("/dashboard");
}
