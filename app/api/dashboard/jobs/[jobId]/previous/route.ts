// GET /api/dashboard/jobs/:jobId/previous: this run compared with the previous run of the same tool and input
// (session auth), for the result views' "Compare with the previous run".
import { NextResponse } from "next/server";
import { currentActor } from "@/lib/auth/session";
import { compareWithPreviousRun } from "@/lib/dashboard/previous-run";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function GET(_req: Request, { params }: { params: Promise<{ jobId: string }> }) {
  const ctx = await currentActor();
  if (!ctx) return NextResponse.json({ error: "Sign in first." }, { status: 401 });
  const { jobId } = await params;
  const found = UUID.test(jobId) ? await compareWithPreviousRun(ctx.db, ctx.actor.accountId, jobId) : null;
  if (!found) return NextResponse.json({ error: "Job not found." }, { status: 404 });
  return NextResponse.json(found, { headers: { "cache-control": "no-store" } });
}
