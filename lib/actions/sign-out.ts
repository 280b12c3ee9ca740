"use server";
import { z } from "zod";
import { auth, signOut } from "@/lib/auth/config";
import { endAllSessions } from "@/lib/auth/session-version";
import { getDb } from "@/lib/db/client";
import { publicAction } from "./safe-action";

const end = publicAction({ input: z.object({}), refused: () => undefined }, async () => {
  // A JWT cannot be revoked alone: bumping the session version ends this session and every other one.
  const userId = (await auth())?.user?.id;
  if (userId) await endAllSessions(await getDb(), userId);
  await signOut({ redirectTo: "/login" });
});

/** Ends every session of the user (all devices) and returns to the sign-in page. */
export async function signOutAction(): Promise<void> {
  await end({});
}
