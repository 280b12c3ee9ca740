// GET /api/dashboard/credits: the active account's balance and recent ledger rows, for the dashboard's
// react-query cache (session auth). Refetched when a job ends, so a refund shows without a reload.
import { NextResponse } from "next/server";
import { currentActor } from "@/lib/auth/session";
import { getCreditAccount } from "@/lib/credits/credits";

export async function GET() {
  const ctx = await currentActor();
  if (!ctx) return NextResponse.json({ error: "Sign in first." }, { status: 401 });
  const credits = await getCreditAccount(ctx.db, ctx.actor.accountId);
  return NextResponse.json(credits, { headers: { "cache-control": "no-store" } });
}
