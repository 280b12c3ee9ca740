"use server";
import { revalidatePath } from "next/cache";
// Dashboard mutations. Each re-reads the session and the role on the server; Next checks the Origin
// header of every server action (CSRF).
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { addDomainAs, verifyDomainAs } from "@/lib/dashboard/domains";
import { ForbiddenError, FormError } from "@/lib/dashboard/errors";
import { acceptInvite, createInvite } from "@/lib/dashboard/invites";
import { rotateKeyAs } from "@/lib/dashboard/keys";
import { getActor } from "@/lib/dashboard/members";
import { ACCOUNT_COOKIE, requireActor } from "@/lib/dashboard/session";
import { type LaunchResult, launchTool } from "@/lib/dashboard/tools";
import { getDb } from "@/lib/db/client";
import { ROLES, type Role } from "@/lib/db/schema";
import { AppError as ApiError } from "@/lib/errors";

export interface ActionState {
  ok?: boolean;
  error?: string;
  field?: string;
}

function toState(err: unknown): ActionState {
  if (err instanceof FormError) return { error: err.message, field: err.field };
  if (err instanceof ForbiddenError) return { error: err.message };
  throw err;
}

export async function launchToolAction(tool: string, input: unknown): Promise<LaunchResult> {
  const { db, actor } = await requireActor();
  const result = await launchTool(db, actor, tool, input);
  if (result.ok) revalidatePath("/dashboard", "layout");
  return result;
}

export type RotateResult =
  | { ok: true; keyId: string; secret: string; createdAt: string }
  | { ok: false; error: string };

export async function rotateKeyAction(): Promise<RotateResult> {
  const { db, actor } = await requireActor();
  try {
    const pair = await rotateKeyAs(db, actor);
    return { ok: true, keyId: pair.keyId, secret: pair.secret, createdAt: pair.createdAt.toISOString() };
  } catch (err) {
    if (err instanceof ForbiddenError) return { ok: false, error: err.message };
    throw err;
  }
}

export async function addDomainAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const { db, actor } = await requireActor();
  try {
    await addDomainAs(db, actor, String(form.get("domain") ?? ""));
  } catch (err) {
    return toState(err);
  }
  revalidatePath("/dashboard/domains");
  return { ok: true };
}

export type VerifyState = ActionState & { checks?: { method: string; ok: boolean; detail: string }[] };

export async function verifyDomainAction(_prev: VerifyState, form: FormData): Promise<VerifyState> {
  const { db, actor } = await requireActor();
  try {
    const result = await verifyDomainAs(db, actor, String(form.get("domain") ?? ""));
    revalidatePath("/dashboard/domains");
    return { ok: result.verified, checks: result.checks };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    return toState(err);
  }
}

export type InviteState = ActionState & { link?: string; expiresAt?: string };

export async function createInviteAction(_prev: InviteState, form: FormData): Promise<InviteState> {
  const { db, actor } = await requireActor();
  const role = String(form.get("role") ?? "member");
  try {
    const { token, expiresAt } = await createInvite(db, actor, {
      email: String(form.get("email") ?? ""),
      role: (ROLES as readonly string[]).includes(role) ? (role as Role) : "member",
    });
    // A path: the page prefixes its own origin, so the link matches the address the owner uses.
    return { ok: true, link: `/invite/${token}`, expiresAt: expiresAt.toISOString() };
  } catch (err) {
    return toState(err);
  }
}

export async function acceptInviteAction(form: FormData): Promise<void> {
  const token = String(form.get("token") ?? "");
  const userId = (await auth())?.user?.id;
  if (!userId) redirect(`/login?next=${encodeURIComponent(`/invite/${token}`)}`);
  let accountId: string;
  try {
    ({ accountId } = await acceptInvite(await getDb(), userId, token));
  } catch (err) {
    if (err instanceof FormError) redirect(`/invite/${encodeURIComponent(token)}?error=used`);
    throw err;
  }
  (await cookies()).set(ACCOUNT_COOKIE, accountId, { httpOnly: true, sameSite: "lax", path: "/" });
  redirect("/dashboard");
}

export async function switchAccountAction(form: FormData): Promise<void> {
  const { db, actor } = await requireActor();
  const wanted = String(form.get("accountId") ?? "");
  // Only an account the user belongs to can become active.
  const next = await getActor(db, actor.userId, wanted);
  if (next?.accountId === wanted) {
    (await cookies()).set(ACCOUNT_COOKIE, wanted, { httpOnly: true, sameSite: "lax", path: "/" });
  }
  redirect("/dashboard");
}
