// GET /api/dashboard/google/callback: Google's redirect after consent; stores the grant, back to Connections.
import { NextResponse } from "next/server";
import { currentActor } from "@/lib/auth/session";
import { finishGoogleConnect, GOOGLE_STATE_COOKIE, readGoogleState } from "@/lib/connections/google";
import { CONNECTIONS_PAGE } from "@/lib/connections/store";
import { AppError } from "@/lib/errors";
import { GoogleError } from "@/lib/providers/google";

export async function GET(req: Request) {
  const url = new URL(req.url);
  const back = new URL(CONNECTIONS_PAGE, req.url);
  const done = (params: Record<string, string>) => {
    for (const [k, v] of Object.entries(params)) back.searchParams.set(k, v);
    const res = NextResponse.redirect(back, 303);
    res.cookies.delete({ name: GOOGLE_STATE_COOKIE, path: "/api/dashboard/google" });
    return res;
  };
  const ctx = await currentActor();
  if (!ctx) return NextResponse.redirect(new URL("/login", req.url), 303);
  if (url.searchParams.get("error")) {
    return done({ error: `Google did not connect (${url.searchParams.get("error")?.slice(0, 100)}).` });
  }
  const code = url.searchParams.get("code");
  const cookie = req.headers
    .get("cookie")
    ?.split(/;\s*/)
    .find((c) => c.startsWith(`${GOOGLE_STATE_COOKIE}=`))
    ?.slice(GOOGLE_STATE_COOKIE.length + 1);
  try {
    const who = readGoogleState(process.env, url.searchParams.get("state") ?? "", cookie);
    // The round trip must come back to the browser, user and account that started it.
    if (!code || !who || who.accountId !== ctx.actor.accountId || who.userId !== ctx.actor.userId) {
      return done({ error: "That Google sign-in link expired or was not started here; connect again." });
    }
    await finishGoogleConnect(ctx.db, process.env, who.accountId, code);
    return done({ connected: "google" });
  } catch (err) {
    if (err instanceof AppError || err instanceof GoogleError) return done({ error: err.message });
    throw err;
  }
}
