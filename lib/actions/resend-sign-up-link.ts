"use server";
import { headers } from "next/headers";
import { z } from "zod";
import { clientIpFromHeaders } from "@/lib/api/https";
import { resendSignUpLink, SIGN_UP_LINK_MESSAGES } from "@/lib/dashboard/sign-up-links";
import { getDb } from "@/lib/db/client";
import { formFields } from "./client";
import { line, linkToken } from "./fields";
import { publicAction } from "./safe-action";
import type { SignUpState } from "./state";

// From the "check your email" answer (the address) or an expired link's page (its token).
const input = z.object({
  email: line(320, "The email address"),
  token: linkToken(SIGN_UP_LINK_MESSAGES.invalid),
});

const resend = publicAction(
  { input, refused: (err): SignUpState => ({ error: err.message, field: err.field }) },
  async ({ email, token }): Promise<SignUpState> => {
    const ip = clientIpFromHeaders(await headers());
    const sent = await resendSignUpLink(await getDb(), token ? { token } : { email }, { ip });
    return { sentTo: sent.email, resent: true };
  },
);

/** "Send the link again": the same answer whether the address has an account or not. */
export async function resendSignUpLinkAction(_prev: SignUpState, form: FormData): Promise<SignUpState> {
  return resend(formFields(form));
}
