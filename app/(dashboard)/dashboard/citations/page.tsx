import type { Metadata } from "next";
import { LazyCitationChart } from "@/components/charts/lazy";
import { DomainFilter } from "@/components/dashboard/domain-filter";
import { NoDomains } from "@/components/dashboard/no-domains";
import { Sparkline } from "@/components/dashboard/onboarding";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { listDomains } from "@/lib/accounts/domains";
import { requireActor } from "@/lib/auth/session";
import { getCitationPeriod } from "@/lib/dashboard/citation-period";
import { formatNumber } from "@/lib/dashboard/format";
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
  const row = domains.find((d) => d.hostname === sp.domain) ?? domains[0]!;
  const domain = row.hostname;
  const days = intParam(sp.days, CITATIONS_DAYS.min, CITATIONS_DAYS.max, CITATIONS_DAYS.default);
  const limit = intParam(sp.limit, CITATIONS_LIMIT.min, CITATIONS_LIMIT.max, CITATIONS_LIMIT.default);
  const [report, period] = await Promise.all([
    getCitations(db, actor.accountId, { domain, days, limit }),
    getCitationPeriod(db, row.id, days),
  ]);
  const half = Math.floor(period.trend.length / 2);
  const sum = (list: { citations: number }[]) => list.reduce((s, d) => s + d.citations, 0);
  const earlier = sum(period.trend.slice(0, half));
  const later = sum(period.trend.slice(half));
  return (
    <>
      <PageHeader
        title="Citations"
        description="Pages AI engines and assistants read for their users (ChatGPT, Meta AI, Mistral, DuckAssist, NotebookLM, …) and people their answers referred: pages they cite."
      />
      <DomainFilter
        domains={domains.map((d) => d.hostname)}
        domain={domain}
        days={days}
        dayOptions={[7, 30, 60, CITATIONS_DAYS.max]}
        limit={limit}
        limitBounds={CITATIONS_LIMIT}
      />
      <Card title={`${report.total} citations in the last ${report.periodDays} days, by engine or assistant`}>
        {report.byBot.length === 0 ? (
          <EmptyState>No citations in this period.</EmptyState>
        ) : (
          <LazyCitationChart data={report.byBot} />
        )}
      </Card>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card title={`Top cited pages, last ${report.periodDays} days`}>
          <DataTable
            label="Top cited pages"
            columns={[
              { header: "Path", cell: (p) => p.path, className: "break-all font-mono text-xs" },
              { header: "Engines", cell: (p) => p.engines.join(", ") },
              { header: "Citations", cell: (p) => formatNumber(p.citations), align: "right" },
            ]}
            rows={period.topPages}
            rowKey={(p) => p.path}
            empty="No cited pages in this period."
          />
        </Card>
        <Card title="Trend">
          <p className="text-sm text-slate-700" data-testid="citation-trend">
            {formatNumber(later)} citations in the later half of the period,{" "}
            {earlier === 0
              ? `${formatNumber(earlier)} in the earlier half`
              : `${later >= earlier ? "+" : ""}${Math.round(((later - earlier) / earlier) * 100)}% on the earlier half (${formatNumber(earlier)})`}
            .
          </p>
          <Sparkline values={period.trend.map((d) => d.citations)} label="Citations per day" />
        </Card>
      </div>
      <Card title="Most recent citations" className="mt-4">
        <DataTable
          columns={[
            {
              header: "When",
              cell: (c) => <LocalTime value={c.timestamp} />,
              className: "whitespace-nowrap",
            },
            { header: "Engine", cell: (c) => c.bot },
            { header: "Path", cell: (c) => c.path, className: "break-all font-mono text-xs" },
          ]}
          label="Most recent citations"
          rows={report.citations}
          // Citations have no id; the list is replaced, never reordered.
          rowKey={(c, i) => `${c.timestamp}-${i}`}
          empty="None yet."
        />
      </Card>
    </>
  );
}
