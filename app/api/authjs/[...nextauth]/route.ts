// GET/POST /api/authjs/*: next-auth's own routes (sign-in, callbacks, CSRF token, session, sign-out), each OAuth
// callback's state accepted once, and next-auth's HTML pages with the dashboard's security headers.
import { handlers } from "@/auth";
import { AUTH_BASE_PATH } from "@/lib/auth/options";
import { guardAuthRoute } from "@/lib/auth/route-guard";
import { getDb } from "@/lib/db/client";

const guard = { db: getDb, basePath: AUTH_BASE_PATH, signInPage: "/login" };

export const GET = guardAuthRoute(handlers.GET, guard);
export const POST = guardAuthRoute(handlers.POST, guard);
