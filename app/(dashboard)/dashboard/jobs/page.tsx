import type { Metadata } from "next";
import Link from "next/link";
import { Card, PageHeader, StatusBadge } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { PathText } from "@/components/ui/path-text";
import { requireActor } from "@/lib/auth/session";
import { getJobTargets } from "@/lib/dashboard/job-targets";
import { shortJobRef, toolTitle } from "@/lib/dashboard/labels";
import { JOB_STATUSES, type JobStatus } from "@/lib/db/schema";
import { listJobs } from "@/lib/jobs/list";
import { TOOL_NAMES, type ToolName } from "@/lib/tools/catalog";

export const metadata: Metadata = { title: "Jobs" };

type Search = { status?: string; tool?: string; cursor?: string };

export default async function JobsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { db, actor } = await requireActor();
  const sp = await searchParams;
  const status = (JOB_STATUSES as readonly string[]).includes(sp.status ?? "")
    ? (sp.status as JobStatus)
    : undefined;
  const tool = (TOOL_NAMES as readonly string[]).includes(sp.tool ?? "") ? (sp.tool as ToolName) : undefined;
  const cursor = sp.cursor && sp.cursor.length <= 200 ? sp.cursor : undefined;
  const page = await listJobs(db, actor.accountId, { status, tool, limit: 25, cursor }).catch(() =>
    listJobs(db, actor.accountId, { status, tool, limit: 25 }),
  );
  const targets = await getJobTargets(
    db,
    actor.accountId,
    page.jobs.map((j) => j.jobId),
  );
  const qs = (extra: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ status, tool, ...extra })) if (v) p.set(k, v);
    const s = p.toString();
    return s ? `?${s}` : "";
  };
  return (
    <>
      <PageHeader
        title="Jobs"
        description="Tool runs of the last 7 days, newest first. Results are kept for 7 days."
      />
      <Card>
        <form method="get" className="mb-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="status" className="field-label">
              Status
            </label>
            <select id="status" name="status" defaultValue={status ?? ""} className="field-input">
              <option value="">Any</option>
              {JOB_STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="tool" className="field-label">
              Tool
            </label>
            <select id="tool" name="tool" defaultValue={tool ?? ""} className="field-input">
              <option value="">Any</option>
              {TOOL_NAMES.map((t) => (
                <option key={t} value={t}>
                  {toolTitle(t)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-secondary py-2">
            Filter
          </button>
        </form>
        {/* A list, not a table: tool, status, target and times stay readable at any width without sideways scrolling. */}
        {page.jobs.length === 0 ? (
          <EmptyState>No jobs match.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Jobs" data-testid="jobs-list">
            {page.jobs.map((j) => {
              const target = targets.get(j.jobId);
              return (
                <li
                  key={j.jobId}
                  className="grid gap-1 py-3 text-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-x-6"
                >
                  <div className="min-w-0">
                    <Link href={`/dashboard/jobs/${j.jobId}`} className="link font-medium">
                      {toolTitle(j.tool)}
                      <span className="sr-only"> job {shortJobRef(j.jobId)}</span>
                    </Link>
                    {target ? (
                      <p className="mt-0.5 font-mono text-xs text-slate-700" data-testid="job-target">
                        <PathText value={target} />
                      </p>
                    ) : null}
                  </div>
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-600 sm:justify-end">
                    <StatusBadge status={j.status} />
                    <span>
                      <LocalTime value={j.createdAt} />
                    </span>
                    <span>
                      {j.creditsCharged} credits{j.creditsRefunded ? " (refunded)" : ""}
                    </span>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        {page.nextCursor ? (
          <p className="mt-4">
            <Link className="link" href={`/dashboard/jobs${qs({ cursor: page.nextCursor })}`}>
              Older jobs →
            </Link>
          </p>
        ) : null}
      </Card>
    </>
  );
}
