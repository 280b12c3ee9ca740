"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { emailInvite } from "@/lib/dashboard/invite-email";
import { createInvite } from "@/lib/dashboard/invites";
import { ROLES } from "@/lib/db/schema";
import { formFields } from "./client";
import { line } from "./fields";
import { actorAction } from "./safe-action";
import { type InviteState, toActionState } from "./state";

// An unknown role falls back to the least one; the address is checked by createInvite.
const createInviteInput = z.object({
  email: line(320, "The email address"),
  role: z.enum(ROLES).catch("member"),
});

const invite = actorAction(
  { input: createInviteInput, role: "admin", refused: toActionState },
  async ({ db, actor, input }): Promise<InviteState> => {
    const { token, expiresAt } = await createInvite(db, actor, input);
    revalidatePath("/dashboard/members"); // the pending invitations list

    // A path: the page prefixes its own origin, so the link matches the address the owner uses.
    const state: InviteState = { ok: true, link: `/invite/${token}`, expiresAt: expiresAt.toISOString() };
    const to = input.email.trim();
    if (!to) return state;
    return { ...state, ...(await emailInvite(to, token, actor.accountName, input.role)) };
  },
);

/** Creates an invitation link to the active account (owner or admin). */
export async function createInviteAction(_prev: InviteState, form: FormData): Promise<InviteState> {
  return invite(formFields(form));
}
