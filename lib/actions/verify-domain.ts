"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { verifyDomainAs } from "@/lib/dashboard/domains";
import { AppError } from "@/lib/errors";
import { formFields } from "./client";
import { line } from "./fields";
import { actorAction } from "./safe-action";
import { toActionState, type VerifyState } from "./state";

const verifyDomainInput = z.object({ domain: line(300, "The domain") });

const verifyDomain = actorAction(
  { input: verifyDomainInput, role: "admin", refused: toActionState },
  async ({ db, actor, input }): Promise<VerifyState> => {
    try {
      const result = await verifyDomainAs(db, actor, input.domain);
      revalidatePath("/dashboard/domains");
      return { ok: result.verified, checks: result.checks };
    } catch (err) {
      // An unknown or foreign domain: the service's message is phrased for the customer.
      if (err instanceof AppError) return { error: err.message };
      throw err;
    }
  },
);

/** Checks the domain's DNS record and well-known file (owner or admin). */
export async function verifyDomainAction(_prev: VerifyState, form: FormData): Promise<VerifyState> {
  return verifyDomain(formFields(form));
}
