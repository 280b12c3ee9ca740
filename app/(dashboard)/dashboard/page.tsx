import type { Metadata } from "next";
import Link from "next/link";
import { SpendBars } from "@/components/charts/spend-bars";
import { BalanceFigures, RecentTransactions } from "@/components/dashboard/credit-summary";
import { OnboardingPanel } from "@/components/dashboard/onboarding";
import { DismissNotice } from "@/components/dashboard/webhooks";
import { Card, PageHeader, StatusBadge } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { requireActor } from "@/lib/auth/session";
import { getCreditAccount } from "@/lib/credits/credits";
import { formatNumber } from "@/lib/dashboard/format";
import { toolTitle } from "@/lib/dashboard/labels";
import { getOnboarding } from "@/lib/dashboard/onboarding";
import { getSpendSeries } from "@/lib/dashboard/overview";
import { noticesFor } from "@/lib/dashboard/webhooks";
import { compareWeeks, describeChange } from "@/lib/dashboard/week-compare";
import { listJobs } from "@/lib/jobs/list";
import { DomainTimelineSection } from "./domain-timeline-section";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const { db, actor } = await requireActor();
  const [credits, series, recent, onboarding, notices] = await Promise.all([
    getCreditAccount(db, actor.accountId),
    getSpendSeries(db, actor.accountId, 30),
    listJobs(db, actor.accountId, { limit: 5 }),
    getOnboarding(db, actor.accountId),
    noticesFor(db, actor),
  ]);
  const spend = compareWeeks(series.map((d) => d.spent - d.refunded));
  return (
    <>
      <PageHeader title="Overview" description={`${actor.accountName} · signed in as ${actor.role}`}>
        <Link href="/dashboard/tools" className="btn-primary">
          Launch a tool
        </Link>
      </PageHeader>
      {notices.map((n) => (
        <div
          key={n.id}
          role="alert"
          className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-md bg-red-50 p-3 text-sm text-red-800"
        >
          <span>
            {n.message}{" "}
            {n.kind === "webhook_disabled" ? (
              <Link href="/dashboard/webhooks" className="underline">
                Webhooks
              </Link>
            ) : null}
          </span>
          <DismissNotice id={n.id} />
        </div>
      ))}
      <OnboardingPanel initial={onboarding} />
      <div className="grid gap-4 sm:grid-cols-3">
        <BalanceFigures initial={credits} />
        <Card>
          <p className="text-sm text-slate-600">Net spend, last 7 days</p>
          <p className="mt-1 text-3xl font-semibold text-slate-900">{formatNumber(spend?.current ?? 0)}</p>
          {spend ? (
            <p className="mt-1 text-xs text-slate-600">
              {describeChange(spend)} ({formatNumber(spend.previous)})
            </p>
          ) : null}
        </Card>
      </div>
      <DomainTimelineSection db={db} accountId={actor.accountId} />
      <Card title="Spend over the last 30 days" className="mt-4">
        <SpendBars data={series} />
      </Card>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card title="Recent transactions">
          <RecentTransactions initial={credits} />
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
                    {toolTitle(j.tool)}
                  </Link>
                  <span className="text-slate-600">
                    <LocalTime value={j.createdAt} />
                  </span>
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
