// The dashboard's gate, for server components, server actions and /api/dashboard routes.
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { type Actor, getActor } from "@/lib/dashboard/members";
import { type Db, getDb } from "@/lib/db/client";
import { auth } from "./config";

export { ACCOUNT_COOKIE, accountCookieOptions } from "./cookies";

import { ACCOUNT_COOKIE } from "./cookies";

/**
 * The signed-in actor, or null (no session, or a user without any account). Memoised per request (React
 * cache), so the layout and the page share one read; every request reads the role afresh.
 */
export const currentActor = cache(async (): Promise<{ db: Db; actor: Actor } | null> => {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) return null;
  const db = await getDb();
  const preferred = (await cookies()).get(ACCOUNT_COOKIE)?.value;
  const actor = await getActor(db, userId, preferred);
  return actor ? { db, actor } : null;
});

/**
 * For pages and actions: the actor, or a redirect to /login. A signed-in user without any account (an OAuth
 * sign-in that shared no email address) is told so there, rather than bounced between /login and /dashboard.
 */
export async function requireActor(): Promise<{ db: Db; actor: Actor }> {
  const ctx = await currentActor();
  if (!ctx) redirect((await auth())?.user?.id ? "/login?error=no-account" : "/login");
  return ctx;
}
