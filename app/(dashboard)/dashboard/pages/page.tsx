import type { Metadata } from "next";
import Link from "next/link";
import { DomainFilter } from "@/components/dashboard/domain-filter";
import { NoDomains } from "@/components/dashboard/no-domains";
import { PageFunnelTable, pagesHref, SortForm } from "@/components/pages/page-funnel";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { listDomains } from "@/lib/accounts/domains";
import { requireActor } from "@/lib/auth/session";
import { formatNumber } from "@/lib/dashboard/format";
import { intParam } from "@/lib/dashboard/params";
import { AppError } from "@/lib/errors";
import {
  PAGE_SORTS,
  PAGES_DAYS,
  PAGES_LIMIT,
  type PageSort,
  type SourceStatus,
} from "@/lib/funnel/api-schemas";
import { defaultOrder, getPageFunnel } from "@/lib/funnel/page-funnel";

export const metadata: Metadata = { title: "Pages" };

const CONNECTIONS = "/dashboard/connections";

/** Where a source's figures come from, or why there are none, the Connections page linked where it is named. */
function SourceNote({ name, status }: { name: string; status: SourceStatus }) {
  if (status.status === "connected") {
    return (
      <li>
        {name}: connected ({status.property})
        {status.complete ? "" : "; only its top pages were read, the others show —"}.
      </li>
    );
  }
  const [before, ...after] = (status.message ?? "").split(CONNECTIONS);
  return (
    <li>
      {name}: {after.length > 0 ? before : `${before} `}
      <Link href={CONNECTIONS} className="link">
        Connections
      </Link>
      {after.join(CONNECTIONS)}
    </li>
  );
}

export default async function PagesPage({
  searchParams,
}: {
  searchParams: Promise<{ domain?: string; days?: string; sort?: string; order?: string; cursor?: string }>;
}) {
  const { db, actor } = await requireActor();
  const sp = await searchParams;
  const domains = await listDomains(db, actor.accountId);
  if (domains.length === 0) return <NoDomains title="Pages" />;
  const domain = (domains.find((d) => d.hostname === sp.domain) ?? domains[0]!).hostname;
  const days = intParam(sp.days, PAGES_DAYS.min, PAGES_DAYS.max, PAGES_DAYS.default);
  const sort: PageSort = (PAGE_SORTS as readonly string[]).includes(sp.sort ?? "")
    ? (sp.sort as PageSort)
    : "crawls";
  const order = sp.order === "asc" || sp.order === "desc" ? sp.order : defaultOrder(sort);
  const query = { domain, days, sort, order, limit: PAGES_LIMIT.default } as const;
  let staleCursor = false;
  let report: Awaited<ReturnType<typeof getPageFunnel>>;
  try {
    report = await getPageFunnel(db, process.env, actor.accountId, {
      ...query,
      cursor: sp.cursor || undefined,
    });
  } catch (err) {
    // A cursor from another listing (an edited or old address): start from the first page.
    if (!(err instanceof AppError && err.code === "VALIDATION_ERROR" && sp.cursor)) throw err;
    staleCursor = true;
    report = await getPageFunnel(db, process.env, actor.accountId, query);
  }
  const t = report.totals;
  return (
    <>
      <PageHeader
        title="Pages"
        description="Which pages AI engines read, which they cite, and which send people: AI crawls, citations and AI-referred visits per page."
      />
      <DomainFilter
        domains={domains.map((d) => d.hostname)}
        domain={domain}
        days={days}
        dayOptions={[7, 30, 60, PAGES_DAYS.max]}
      />
      {staleCursor ? (
        <p role="status" className="mb-3 text-sm text-slate-700">
          That page of the listing no longer exists; showing the first page.
        </p>
      ) : null}
      <Card title={`Last ${report.periodDays} days (${report.startDate} to ${report.endDate})`}>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="pages-totals">
          <div>
            <dt className="text-slate-600">Pages</dt>
            <dd className="text-xl font-semibold">{formatNumber(t.pages)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">AI crawls</dt>
            <dd className="text-xl font-semibold">{formatNumber(t.aiCrawls)}</dd>
            <dd className="text-xs text-slate-600">{formatNumber(t.verifiedAiCrawls)} verified</dd>
          </div>
          <div>
            <dt className="text-slate-600">Citations</dt>
            <dd className="text-xl font-semibold">{formatNumber(t.citations)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">AI-referred visits</dt>
            <dd className="text-xl font-semibold">{formatNumber(t.aiReferredVisits)}</dd>
          </div>
        </dl>
        <ul className="mt-3 space-y-1 text-xs text-slate-600">
          <SourceNote name="Search Console" status={report.searchConsole} />
          <SourceNote name="Analytics" status={report.analytics} />
        </ul>
      </Card>
      <Card title="Pages" className="mt-4">
        <SortForm report={report} days={days} />
        <PageFunnelTable report={report} days={days} />
        <nav aria-label="Pages of the listing" className="mt-3 flex flex-wrap gap-3 text-sm">
          {sp.cursor && !staleCursor ? (
            <Link className="link" href={pagesHref({ domain, days, sort, order })}>
              First page
            </Link>
          ) : null}
          {report.nextCursor ? (
            <Link className="link" href={pagesHref({ domain, days, sort, order, cursor: report.nextCursor })}>
              Next {PAGES_LIMIT.default} pages
            </Link>
          ) : null}
        </nav>
      </Card>
      <Card title="Crawls per AI-referred visit, by operator" className="mt-4">
        <DataTable
          label="Crawls per AI-referred visit, by operator"
          columns={[
            { header: "Operator", cell: (o) => o.operator },
            { header: "AI crawls", cell: (o) => formatNumber(o.aiCrawls), align: "right" },
            { header: "AI-referred visits", cell: (o) => formatNumber(o.aiReferredVisits), align: "right" },
            {
              header: "Crawls per visit",
              cell: (o) =>
                o.crawlsPerReferredVisit === null ? "no visit yet" : formatNumber(o.crawlsPerReferredVisit),
              align: "right",
            },
          ]}
          rows={report.operators}
          rowKey={(o) => o.operator}
          empty="No AI crawls or AI-referred visits in this period."
        />
      </Card>
      <p className="mt-4 text-xs text-slate-600">{report.method}</p>
    </>
  );
}
