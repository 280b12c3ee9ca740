import type { Metadata } from "next";
import Link from "next/link";
import { MonitorControls } from "@/components/dashboard/monitor-controls";
import { runStatusText, scheduleText, statusText } from "@/components/dashboard/monitor-labels";
import { NoDomains } from "@/components/dashboard/no-domains";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { LocalTime } from "@/components/ui/local-time";
import { canManageKeys } from "@/lib/accounts/accounts";
import { listDomains } from "@/lib/accounts/domains";
import { requireActor } from "@/lib/auth/session";
import { formatNumber } from "@/lib/dashboard/format";
import { monitorsOverview } from "@/lib/dashboard/monitors";

export const metadata: Metadata = { title: "Monitors" };

export default async function MonitorsPage() {
  const { db, actor } = await requireActor();
  const [domains, monitors] = await Promise.all([
    listDomains(db, actor.accountId),
    monitorsOverview(db, actor),
  ]);
  if (domains.length === 0 && monitors.length === 0) return <NoDomains title="Monitors" />;
  const manager = canManageKeys(actor.role);
  return (
    <>
      <PageHeader
        title="Monitors"
        description="Tracked prompts answered by every engine on a schedule: mention rate, citation rate and share of voice, each with its sample size and 95% interval."
      >
        {manager ? (
          <Link href="/dashboard/monitors/new" className="btn-primary">
            New monitor
          </Link>
        ) : null}
      </PageHeader>
      {manager ? null : (
        <p className="mb-4 text-sm text-slate-700">
          Members read the reports; an owner or admin creates, runs, pauses and deletes monitors.
        </p>
      )}
      <Card title={`${monitors.length} ${monitors.length === 1 ? "monitor" : "monitors"}`}>
        <DataTable
          label="Monitors"
          columns={[
            {
              header: "Monitor",
              cell: (m) => (
                <Link className="link break-words" href={`/dashboard/monitors/${m.id}`}>
                  {m.name ?? m.domain}
                </Link>
              ),
              className: "max-w-[14rem]",
            },
            { header: "Domain", cell: (m) => m.domain },
            { header: "Prompts", cell: (m) => m.prompts.length, align: "right" },
            { header: "Engines", cell: (m) => m.engines.join(", "), className: "min-w-[10rem]" },
            { header: "Schedule", cell: (m) => scheduleText(m.schedule), className: "min-w-[12rem]" },
            {
              header: "Status",
              cell: (m) => <span data-testid="monitor-status">{statusText(m)}</span>,
              className: "min-w-[8rem]",
            },
            {
              header: "Last run",
              cell: (m) =>
                m.lastRun ? (
                  <>
                    {runStatusText(m.lastRun)}
                    <br />
                    <span className="text-xs text-slate-600">
                      <LocalTime value={m.lastRun.createdAt} />
                    </span>
                  </>
                ) : (
                  "None yet"
                ),
              className: "min-w-[9rem]",
            },
            {
              header: "Next run",
              cell: (m) => (m.nextRunAt ? <LocalTime value={m.nextRunAt} /> : "—"),
              className: "whitespace-nowrap",
            },
            {
              header: "Credits per run / month",
              cell: (m) => (
                <>
                  {formatNumber(m.estimate.creditsPerRun)} / {formatNumber(m.estimate.creditsPerMonth)}
                  {m.monthlyCreditCap !== null ? (
                    <span className="block text-xs text-slate-600">
                      cap {formatNumber(m.monthlyCreditCap)} a month
                    </span>
                  ) : null}
                </>
              ),
              align: "right",
              className: "whitespace-nowrap",
            },
            ...(manager
              ? [
                  {
                    header: "Actions",
                    cell: (m: (typeof monitors)[number]) => (
                      <div className="min-w-[18rem]">
                        <MonitorControls
                          id={m.id}
                          label={m.name ?? m.domain}
                          status={m.status}
                          creditsPerRun={m.estimate.creditsPerRun}
                        />
                      </div>
                    ),
                  },
                ]
              : []),
          ]}
          rows={monitors}
          rowKey={(m) => m.id}
          empty={
            manager ? (
              <>
                No monitor yet.{" "}
                <Link href="/dashboard/monitors/new" className="link">
                  Create one
                </Link>{" "}
                to track how AI engines answer the questions your customers ask.
              </>
            ) : (
              "No monitor yet. An owner or admin of the account can create one."
            )
          }
        />
      </Card>
    </>
  );
}
