"use server";
import { z } from "zod";
import { signIn } from "@/lib/auth/config";
import { formFields } from "./client";
import { publicAction } from "./safe-action";
import { safeNext } from "./safe-next";

const oauthSignInInput = z.object({ provider: z.enum(["github", "google"]), next: z.unknown().optional() });

const startOAuth = publicAction({ input: oauthSignInInput, refused: () => undefined }, async (input) => {
  await signIn(input.provider, { redirectTo: safeNext(input.next) });
});

/** Sends the browser to GitHub or Google; any other provider name does nothing. */
export async function oauthSignInAction(form: FormData): Promise<void> {
  await startOAuth(formFields(form));
}
