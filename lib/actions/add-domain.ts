"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { addDomainAs } from "@/lib/dashboard/domains";
import { formFields } from "./client";
import { line } from "./fields";
import { actorAction } from "./safe-action";
import { type ActionState, toActionState } from "./state";

// The hostname itself is checked by registerDomain, which names the field when it refuses one.
const addDomainInput = z.object({ domain: line(300, "The domain") });

const addDomain = actorAction(
  { input: addDomainInput, role: "admin", refused: toActionState },
  async ({ db, actor, input }): Promise<ActionState> => {
    await addDomainAs(db, actor, input.domain);
    revalidatePath("/dashboard/domains");
    return { ok: true };
  },
);

/** Registers a domain on the active account (owner or admin). */
export async function addDomainAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return addDomain(formFields(form));
}
