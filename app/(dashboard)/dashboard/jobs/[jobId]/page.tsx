import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { JobView } from "@/components/dashboard/job-view";
import { PageHeader } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { requireActor } from "@/lib/auth/session";
import { shortJobRef, toolTitle } from "@/lib/dashboard/labels";
import { getJob } from "@/lib/jobs/queries";
import { toJobView } from "@/lib/jobs/view";

export const metadata: Metadata = { title: "Job" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function JobPage({ params }: { params: Promise<{ jobId: string }> }) {
  const { jobId } = await params;
  const { db, actor } = await requireActor();
  const job = UUID.test(jobId) ? await getJob(db, actor.accountId, jobId) : null;
  if (!job) notFound();
  const view = toJobView(job);
  const input = job.input as Record<string, unknown>;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/dashboard/jobs" className="link">
          ← All jobs
        </Link>
      </p>
      <PageHeader
        title={`${toolTitle(job.tool)} · job ${shortJobRef(job.id)}`}
        description={
          <>
            Created <LocalTime value={view.createdAt} /> · kept until <LocalTime value={view.expiresAt} />
          </>
        }
      />
      <p className="mb-4 break-all text-sm text-slate-700">
        Input: <code className="font-mono">{JSON.stringify(input)}</code>
      </p>
      <JobView jobId={job.id} initial={view} />
    </>
  );
}
