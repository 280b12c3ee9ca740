import type { Metadata } from "next";
import Link from "next/link";
import { Card, PageHeader, StatusBadge } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { LocalTime } from "@/components/ui/local-time";
import { requireActor } from "@/lib/auth/session";
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
        <DataTable
          columns={[
            {
              header: "Tool",
              cell: (j) => (
                <Link href={`/dashboard/jobs/${j.jobId}`} className="link">
                  {toolTitle(j.tool)}
                  <span className="sr-only"> job {shortJobRef(j.jobId)}</span>
                </Link>
              ),
            },
            { header: "Status", cell: (j) => <StatusBadge status={j.status} /> },
            {
              header: "Created",
              cell: (j) => <LocalTime value={j.createdAt} />,
              className: "whitespace-nowrap",
            },
            {
              header: "Finished",
              cell: (j) => <LocalTime value={j.completedAt} />,
              className: "whitespace-nowrap",
            },
            {
              header: "Credits",
              cell: (j) => `${j.creditsCharged}${j.creditsRefunded ? " (refunded)" : ""}`,
              align: "right",
            },
          ]}
          rows={page.jobs}
          rowKey={(j) => j.jobId}
          empty="No jobs match."
          label="Jobs"
        />
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
