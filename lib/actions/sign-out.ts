"use server";
import { z } from "zod";
import { signOut } from "@/lib/auth/config";
import { publicAction } from "./safe-action";

const end = publicAction({ input: z.object({}), refused: () => undefined }, async () => {
  await signOut({ redirectTo: "/login" });
});

/** Ends the session and returns to the sign-in page. */
export async function signOutAction(): Promise<void> {
  await end({});
}
