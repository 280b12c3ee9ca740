import type { Metadata } from "next";
import Link from "next/link";
import { SpendBars } from "@/components/charts/spend-bars";
import { Card, PageHeader, StatusBadge } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { requireActor } from "@/lib/auth/session";
import { getCreditAccount } from "@/lib/credits/credits";
import { formatDateTime, formatNumber } from "@/lib/dashboard/format";
import { getSpendSeries } from "@/lib/dashboard/overview";
import { listJobs } from "@/lib/jobs/list";
import { DomainTimelineSection } from "./domain-timeline-section";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const { db, actor } = await requireActor();
  const [credits, series, recent] = await Promise.all([
    getCreditAccount(db, actor.accountId),
    getSpendSeries(db, actor.accountId, 30),
    listJobs(db, actor.accountId, { limit: 5 }),
  ]);
  const spent30 = series.reduce((s, d) => s + d.spent - d.refunded, 0);
  return (
    <>
      <PageHeader title="Overview" description={`${actor.accountName} · signed in as ${actor.role}`}>
        <Link href="/dashboard/tools" className="btn-primary">
          Launch a tool
        </Link>
      </PageHeader>
      <div className="grid gap-4 sm:grid-cols-3">
        <Card>
          <p className="text-sm text-slate-600">Credit balance</p>
          <p className="mt-1 text-3xl font-semibold text-slate-900" data-testid="credit-balance">
            {formatNumber(credits.balance)}
          </p>
        </Card>
        <Card>
          <p className="text-sm text-slate-600">Used in total</p>
          <p className="mt-1 text-3xl font-semibold text-slate-900">{formatNumber(credits.totalUsed)}</p>
        </Card>
        <Card>
          <p className="text-sm text-slate-600">Net spend, last 30 days</p>
          <p className="mt-1 text-3xl font-semibold text-slate-900">{formatNumber(spent30)}</p>
        </Card>
      </div>
      <DomainTimelineSection db={db} accountId={actor.accountId} />
      <Card title="Spend over the last 30 days" className="mt-4">
        <SpendBars data={series} />
      </Card>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card title="Recent transactions">
          <DataTable
            columns={[
              { header: "When", cell: (t) => formatDateTime(t.createdAt), className: "whitespace-nowrap" },
              {
                header: "Description",
                cell: (t) => (
                  <>
                    <span className="sr-only">{t.type}: </span>
                    {t.description}
                  </>
                ),
              },
              {
                header: "Amount",
                cell: (t) => `${t.amount > 0 ? "+" : ""}${t.amount}`,
                align: "right",
                className: (t) => `font-mono ${t.amount < 0 ? "text-red-700" : "text-emerald-800"}`,
              },
            ]}
            rows={credits.recentTransactions.slice(0, 10)}
            // Ledger rows reach the page without ids; the list is static.
            rowKey={(t, i) => `${t.createdAt}-${i}`}
            empty="No transactions yet."
          />
        </Card>
        <Card
          title="Recent jobs"
          action={
            <Link href="/dashboard/jobs" className="link text-sm">
              All jobs
            </Link>
          }
        >
          {recent.jobs.length === 0 ? (
            <EmptyState>
              No jobs yet.{" "}
              <Link href="/dashboard/tools" className="link">
                Launch a tool
              </Link>
              .
            </EmptyState>
          ) : (
            <ul className="divide-y divide-slate-100">
              {recent.jobs.map((j) => (
                <li key={j.jobId} className="flex items-center justify-between gap-2 py-2 text-sm">
                  <Link href={`/dashboard/jobs/${j.jobId}`} className="link">
                    {j.tool}
                  </Link>
                  <span className="text-slate-600">{formatDateTime(j.createdAt)}</span>
                  <StatusBadge status={j.status} />
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}
