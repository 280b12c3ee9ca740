"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { disconnectGoogle } from "@/lib/connections/google";
import { connectPlausible, disconnectPlausible, setGa4Property } from "@/lib/connections/manage";
import { CONNECTIONS_PAGE } from "@/lib/connections/store";
import { AppError } from "@/lib/errors";
import { formFields } from "./client";
import { line, secret } from "./fields";
import { actorAction } from "./safe-action";
import { type ActionState, toActionState } from "./state";

/** The service's refusals are phrased for the customer; they show beside the form. */
function shown(err: unknown): ActionState {
  if (err instanceof AppError) {
    const field = typeof err.details.field === "string" ? err.details.field : undefined;
    return { error: err.message, ...(field ? { field } : {}) };
  }
  throw err;
}

const plausibleInput = z.object({
  apiKey: secret(500, "The API key"),
  baseUrl: line(2100, "The address"),
});
const connectPlausibleAs = actorAction(
  { input: plausibleInput, role: "admin", refused: toActionState },
  async ({ db, actor, input }): Promise<ActionState> => {
    try {
      await connectPlausible(db, process.env, actor.accountId, input);
    } catch (err) {
      return shown(err);
    }
    revalidatePath(CONNECTIONS_PAGE);
    return { ok: true };
  },
);

/** Stores a Plausible Stats API key (sealed) and its instance's address (owner or admin). */
export async function connectPlausibleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return connectPlausibleAs(formFields(form));
}

const ga4Input = z.object({ domain: line(300, "The domain"), property: line(100, "The property") });
const setGa4As = actorAction(
  { input: ga4Input, role: "admin", refused: toActionState },
  async ({ db, actor, input }): Promise<ActionState> => {
    try {
      await setGa4Property(db, actor.accountId, input);
    } catch (err) {
      return shown(err);
    }
    revalidatePath(CONNECTIONS_PAGE);
    return { ok: true };
  },
);

/** Chooses (or clears) the GA4 property that measures a registered domain (owner or admin). */
export async function setGa4PropertyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return setGa4As(formFields(form));
}

const disconnectInput = z.object({ provider: z.enum(["google", "plausible"]) });
const disconnectAs = actorAction(
  { input: disconnectInput, role: "admin", refused: toActionState },
  async ({ db, actor, input }): Promise<ActionState> => {
    if (input.provider === "google") await disconnectGoogle(db, process.env, actor.accountId);
    else await disconnectPlausible(db, actor.accountId);
    revalidatePath(CONNECTIONS_PAGE);
    return { ok: true };
  },
);

/** Removes a connection: Google's grant is revoked at Google, the stored credentials deleted (owner or admin). */
export async function disconnectAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return disconnectAs(formFields(form));
}
