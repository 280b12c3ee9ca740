// GET /api/dashboard/google/connect: starts Google's consent for the signed-in owner/admin's account (session auth).
import { NextResponse } from "next/server";
import { canManageKeys } from "@/lib/accounts/accounts";
import { currentActor } from "@/lib/auth/session";
import { GOOGLE_STATE_COOKIE, startGoogleConnect } from "@/lib/connections/google";
import { CONNECTIONS_PAGE } from "@/lib/connections/store";
import { AppError } from "@/lib/errors";

export async function GET(req: Request) {
  const ctx = await currentActor();
  const back = new URL(CONNECTIONS_PAGE, req.url);
  if (!ctx) return NextResponse.redirect(new URL("/login", req.url), 303);
  if (!canManageKeys(ctx.actor.role)) {
    back.searchParams.set("error", "Only an owner or admin can connect Google.");
    return NextResponse.redirect(back, 303);
  }
  try {
    const { url, nonce } = startGoogleConnect(process.env, {
      accountId: ctx.actor.accountId,
      userId: ctx.actor.userId,
    });
    const res = NextResponse.redirect(url, 303);
    res.cookies.set(GOOGLE_STATE_COOKIE, nonce, {
      httpOnly: true,
      sameSite: "lax",
      secure: new URL(req.url).protocol === "https:",
      path: "/api/dashboard/google",
      maxAge: 600,
    });
    return res;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    back.searchParams.set("error", err.message);
    return NextResponse.redirect(back, 303);
  }
}
