"use server";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { ACCOUNT_COOKIE, accountCookieOptions } from "@/lib/auth/session";
import { getActor } from "@/lib/dashboard/members";
import { formFields } from "./client";
import { id } from "./fields";
import { actorAction } from "./safe-action";

const switchAccountInput = z.object({ accountId: id("Unknown account.") });

const switchAccount = actorAction(
  { input: switchAccountInput, role: "member", refused: () => undefined },
  async ({ db, actor, input }) => {
    // Only an account the user belongs to can become active.
    const next = await getActor(db, actor.userId, input.accountId);
    if (next?.accountId === input.accountId) {
      (await cookies()).set(ACCOUNT_COOKIE, input.accountId, accountCookieOptions());
    }
  },
);

/** Makes another of the user's accounts the active one. */
export async function switchAccountAction(form: FormData): Promise<void> {
  await switchAccount(formFields(form));
  redirect("/dashboard");
}
