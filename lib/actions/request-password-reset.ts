"use server";
import { headers } from "next/headers";
import { z } from "zod";
import { clientIpFromHeaders } from "@/lib/api/https";
import { requestPasswordReset } from "@/lib/dashboard/email-tokens";
import { getDb } from "@/lib/db/client";
import { formFields } from "./client";
import { line } from "./fields";
import { publicAction } from "./safe-action";
import type { ActionState } from "./state";

const input = z.object({ email: line(320, "The email address") });

const request = publicAction(
  { input, refused: (err): ActionState => ({ error: err.message, field: err.field }) },
  async ({ email }): Promise<ActionState> => {
    const ip = clientIpFromHeaders(await headers());
    await requestPasswordReset(await getDb(), email, { ip });
    return { ok: true };
  },
);

/** "Forgot password?": emails a reset link if the address has a sign-in (the answer is the same if not). */
export async function requestPasswordResetAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return request(formFields(form));
}
