"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { changeMemberRole, removeDomain, removeMember, revokeInvite } from "@/lib/dashboard/team";
import { ROLES } from "@/lib/db/schema";
import { formFields } from "./client";
import { id, line } from "./fields";
import { actorAction } from "./safe-action";
import { type ActionState, toActionState } from "./state";

const changeRole = actorAction(
  {
    input: z.object({ userId: id("Unknown member."), role: z.enum(ROLES, { error: "Choose a role." }) }),
    role: "admin",
    refused: toActionState,
  },
  async ({ db, actor, input }): Promise<ActionState> => {
    await changeMemberRole(db, actor, input.userId, input.role);
    revalidatePath("/dashboard", "layout");
    return { ok: true };
  },
);

/** Changes a member's role (owner or admin; owners only for owners). */
export async function changeMemberRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return changeRole(formFields(form));
}

const remove = actorAction(
  { input: z.object({ userId: id("Unknown member.") }), role: "admin", refused: toActionState },
  async ({ db, actor, input }): Promise<ActionState> => {
    await removeMember(db, actor, input.userId);
    revalidatePath("/dashboard", "layout");
    return { ok: true };
  },
);

/** Removes a member from the active account. */
export async function removeMemberAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return remove(formFields(form));
}

const revoke = actorAction(
  {
    input: z.object({ inviteId: id("Unknown invitation.") }),
    role: "admin",
    refused: toActionState,
  },
  async ({ db, actor, input }): Promise<ActionState> => {
    await revokeInvite(db, actor, input.inviteId);
    revalidatePath("/dashboard/members");
    return { ok: true };
  },
);

/** Revokes a pending invitation. */
export async function revokeInviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return revoke(formFields(form));
}

const dropDomain = actorAction(
  {
    input: z.object({ domain: line(300, "The domain"), confirm: line(300, "The confirmation") }),
    role: "admin",
    refused: toActionState,
  },
  async ({ db, actor, input }): Promise<ActionState> => {
    await removeDomain(db, actor, input.domain, input.confirm);
    revalidatePath("/dashboard", "layout");
    return { ok: true };
  },
);

/** Removes a domain and its tracking data, after the customer typed its name. */
export async function removeDomainAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return dropDomain(formFields(form));
}
