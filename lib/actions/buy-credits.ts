"use server";
import { redirect } from "next/navigation";
import { z } from "zod";
import { beginCheckout } from "@/lib/dashboard/billing";
import { formFields } from "./client";
import { line } from "./fields";
import { actorAction } from "./safe-action";
import { type ActionState, toActionState } from "./state";

const input = z.object({ packId: line(40, "The pack") });

const buy = actorAction({ input, role: "admin", refused: toActionState }, async ({ db, actor, input }) => {
  const url = await beginCheckout(db, actor, input.packId);
  redirect(url);
});

/** Sends an owner or admin to Stripe Checkout for one credit pack. */
export async function buyCreditsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return buy(formFields(form));
}
