import type { Metadata } from "next";
import { LazyCitationChart } from "@/components/charts/lazy";
import { DomainFilter } from "@/components/dashboard/domain-filter";
import { NoDomains } from "@/components/dashboard/no-domains";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { listDomains } from "@/lib/accounts/domains";
import { requireActor } from "@/lib/auth/session";
import { formatDateTime } from "@/lib/dashboard/format";
import { intParam } from "@/lib/dashboard/params";
import { CITATIONS_DAYS, CITATIONS_LIMIT } from "@/lib/tracking/api-schemas";
import { getCitations } from "@/lib/tracking/reports/citations-query";

export const metadata: Metadata = { title: "Citations" };

export default async function CitationsPage({
  searchParams,
}: {
  searchParams: Promise<{ domain?: string; days?: string; limit?: string }>;
}) {
  const { db, actor } = await requireActor();
  const sp = await searchParams;
  const domains = await listDomains(db, actor.accountId);
  if (domains.length === 0) return <NoDomains title="Citations" />;
  const domain = (domains.find((d) => d.hostname === sp.domain) ?? domains[0]!).hostname;
  const days = intParam(sp.days, CITATIONS_DAYS.min, CITATIONS_DAYS.max, CITATIONS_DAYS.default);
  const limit = intParam(sp.limit, CITATIONS_LIMIT.min, CITATIONS_LIMIT.max, CITATIONS_LIMIT.default);
  const report = await getCitations(db, actor.accountId, { domain, days, limit });
  return (
    <>
      <PageHeader
        title="Citations"
        description="Visits by AI engines' user-triggered fetchers and people referred by AI answers: pages the engines cite."
      />
      <DomainFilter
        domains={domains.map((d) => d.hostname)}
        domain={domain}
        days={days}
        dayOptions={[7, 30, 60, CITATIONS_DAYS.max]}
        limit={limit}
        limitBounds={CITATIONS_LIMIT}
      />
      <Card title={`${report.total} citations in the last ${report.periodDays} days, by engine`}>
        {report.byBot.length === 0 ? (
          <EmptyState>No citations in this period.</EmptyState>
        ) : (
          <LazyCitationChart data={report.byBot} />
        )}
      </Card>
      <Card title="Most recent citations" className="mt-4">
        <DataTable
          columns={[
            { header: "When", cell: (c) => formatDateTime(c.timestamp), className: "whitespace-nowrap" },
            { header: "Engine", cell: (c) => c.bot },
            { header: "Path", cell: (c) => c.path, className: "break-all font-mono text-xs" },
          ]}
          rows={report.citations}
          // Citations have no id; the list is replaced, never reordered.
          rowKey={(c, i) => `${c.timestamp}-${i}`}
          empty="None yet."
        />
      </Card>
    </>
  );
}
