import type { Metadata } from "next";
import Link from "next/link";
import { LazyVisibilityChart } from "@/components/charts/lazy";
import { DomainFilter } from "@/components/dashboard/domain-filter";
import { NoDomains } from "@/components/dashboard/no-domains";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { listDomains } from "@/lib/accounts/domains";
import { VISIBILITY_DAYS } from "@/lib/ai-visibility/api-schemas";
import { readLatestObservations } from "@/lib/ai-visibility/observations";
import { getVisibility } from "@/lib/ai-visibility/report";
import { requireActor } from "@/lib/auth/session";
import { intParam } from "@/lib/dashboard/params";

export const metadata: Metadata = { title: "AI visibility" };

const percent = (rate: number) => `${Math.round(rate * 100)}%`;

export default async function VisibilityPage({
  searchParams,
}: {
  searchParams: Promise<{ domain?: string; days?: string }>;
}) {
  const { db, actor } = await requireActor();
  const sp = await searchParams;
  const domains = await listDomains(db, actor.accountId);
  if (domains.length === 0) return <NoDomains title="AI visibility" />;
  const domain = (domains.find((d) => d.hostname === sp.domain) ?? domains[0]!).hostname;
  const days = intParam(sp.days, VISIBILITY_DAYS.min, VISIBILITY_DAYS.max, VISIBILITY_DAYS.default);
  const [report, latest] = await Promise.all([
    getVisibility(db, actor.accountId, { domain, days }),
    readLatestObservations(db, { accountId: actor.accountId, domain, limit: 20 }),
  ]);
  const checked = report.engines.filter((e) => e.checks > 0);
  return (
    <>
      <PageHeader
        title="AI visibility"
        description="How often ChatGPT, Perplexity, Claude and Gemini cite and mention your domain, from your AI citation checks and brand visibility checks."
      />
      <DomainFilter
        domains={domains.map((d) => d.hostname)}
        domain={domain}
        days={days}
        dayOptions={[7, 30, 90, VISIBILITY_DAYS.max]}
      />
      {report.overall.checks === 0 ? (
        <Card title="No AI checks yet">
          <EmptyState>
            No AI engine answer about {domain} in this period. Run an{" "}
            <Link className="link" href="/dashboard/tools/ai-citation-check">
              AI citation check
            </Link>{" "}
            or a{" "}
            <Link className="link" href="/dashboard/tools/brand-visibility">
              brand visibility check
            </Link>{" "}
            to start the series.
          </EmptyState>
        </Card>
      ) : (
        <>
          <Card
            title={`${report.overall.checks} answers: cited in ${percent(report.overall.citationRate)}, mentioned in ${percent(report.overall.mentionRate)}`}
          >
            <DataTable
              columns={[
                { header: "Engine", cell: (e) => e.engine },
                { header: "Answers", cell: (e) => e.checks },
                { header: "Citation rate", cell: (e) => percent(e.citationRate) },
                { header: "Mention rate", cell: (e) => percent(e.mentionRate) },
              ]}
              rows={checked}
              rowKey={(e) => e.engine}
              empty="None."
            />
          </Card>
          <Card title="Citation rate per engine, by day" className="mt-4">
            <LazyVisibilityChart engines={checked} metric="citationRate" />
          </Card>
          <Card title="Mention rate per engine, by day" className="mt-4">
            <LazyVisibilityChart engines={checked} metric="mentionRate" />
          </Card>
        </>
      )}
      <Card title="Latest answers" className="mt-4">
        <DataTable
          columns={[
            {
              header: "When",
              cell: (o) => <LocalTime value={o.observedAt} />,
              className: "whitespace-nowrap",
            },
            { header: "Engine", cell: (o) => o.engine },
            { header: "Prompt", cell: (o) => o.prompt, className: "max-w-xs break-words" },
            { header: "Cited", cell: (o) => (o.cited ? "Yes" : "No") },
            { header: "Position", cell: (o) => (o.mentioned ? `#${o.position}` : "—") },
            { header: "Sentiment", cell: (o) => o.sentiment },
            {
              header: "Answer",
              cell: (o) =>
                o.jobId ? (
                  <Link className="link" href={`/dashboard/jobs/${o.jobId}`}>
                    Open the job
                  </Link>
                ) : (
                  <span className="text-slate-600">Job purged after 7 days</span>
                ),
            },
          ]}
          rows={latest}
          rowKey={(o, i) => `${o.jobId ?? "purged"}-${o.engine}-${i}`}
          empty="None yet."
        />
      </Card>
    </>
  );
}
