// GET /api/dashboard/onboarding: the overview's checklist and tracking figures, polled while the customer
// waits for their first event (session auth).
import { NextResponse } from "next/server";
import { currentActor } from "@/lib/auth/session";
import { getOnboarding } from "@/lib/dashboard/onboarding";

export async function GET() {
  const ctx = await currentActor();
  if (!ctx) return NextResponse.json({ error: "Sign in first." }, { status: 401 });
  const onboarding = await getOnboarding(ctx.db, ctx.actor.accountId);
  return NextResponse.json(onboarding, { headers: { "cache-control": "no-store" } });
}
