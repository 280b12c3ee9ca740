// GET /api/dashboard/jobs/:jobId: the signed-in user's job for the dashboard's poller (session auth).
import { NextResponse } from "next/server";
import { currentActor } from "@/lib/auth/session";
import { getJob } from "@/lib/jobs/queries";
import { toJobView } from "@/lib/jobs/view";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function GET(_req: Request, { params }: { params: Promise<{ jobId: string }> }) {
  const ctx = await currentActor();
  if (!ctx) return NextResponse.json({ error: "Sign in first." }, { status: 401 });
  const { jobId } = await params;
  const job = UUID.test(jobId) ? await getJob(ctx.db, ctx.actor.accountId, jobId) : null;
  if (!job) return NextResponse.json({ error: "Job not found." }, { status: 404 });
  return NextResponse.json(toJobView(job), { headers: { "cache-control": "no-store" } });
}
