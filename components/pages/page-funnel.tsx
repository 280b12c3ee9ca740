import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { formatNumber } from "@/lib/dashboard/format";
import type { PageFunnelRow, PageSort, PagesReport, SortOrder } from "@/lib/funnel/api-schemas";

/** The address of the pages listing with these parameters (the cursor only when paging on). */
export function pagesHref(p: {
  domain: string;
  days: number;
  sort: PageSort;
  order: SortOrder;
  cursor?: string | null;
}) {
  const q = new URLSearchParams({ domain: p.domain, days: String(p.days), sort: p.sort, order: p.order });
  if (p.cursor) q.set("cursor", p.cursor);
  return `/dashboard/pages?${q}`;
}

const day = (iso: string | null) => (iso === null ? "—" : iso.slice(0, 10));

function lag(hours: number | null): string {
  if (hours === null) return "";
  if (hours < 48) return `${formatNumber(Math.round(hours))} h after the first crawl`;
  return `${formatNumber(Math.round(hours / 24))} days after the first crawl`;
}

const names = (list: { name: string; count: number }[]) =>
  list.map((e) => `${e.name} ${formatNumber(e.count)}`).join(", ");

const COLUMNS: { sort: PageSort | null; label: string; right?: boolean }[] = [
  { sort: "path", label: "Page" },
  { sort: "crawls", label: "AI crawls", right: true },
  { sort: null, label: "First crawl" },
  { sort: "citations", label: "Citations", right: true },
  { sort: "firstCitation", label: "First citation" },
  { sort: "referrals", label: "AI-referred visits", right: true },
  { sort: null, label: "Search impr. / clicks", right: true },
  { sort: null, label: "Sessions", right: true },
];

/** Sortable headers: a link per sortable column, the current one marked with aria-sort and an arrow. */
function Header({ report, days }: { report: PagesReport; days: number }) {
  return (
    <thead>
      <tr>
        {COLUMNS.map((c) => {
          const current = c.sort !== null && c.sort === report.sort;
          const next: SortOrder = current
            ? report.order === "asc"
              ? "desc"
              : "asc"
            : c.sort === "path" || c.sort === "firstCitation"
              ? "asc"
              : "desc";
          return (
            <th
              key={c.label}
              scope="col"
              className={c.right ? "text-right" : undefined}
              aria-sort={current ? (report.order === "asc" ? "ascending" : "descending") : undefined}
            >
              {c.sort === null ? (
                c.label
              ) : (
                <Link
                  className="link whitespace-nowrap"
                  href={pagesHref({ domain: report.domain, days, sort: c.sort, order: next })}
                >
                  {c.label}
                  {current ? (report.order === "asc" ? " ↑" : " ↓") : ""}
                  <span className="sr-only">
                    {current ? `, sorted ${report.order === "asc" ? "ascending" : "descending"}` : ", sort"}
                  </span>
                </Link>
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

function SearchCell({ row }: { row: PageFunnelRow }) {
  if (row.search === null) return <span className="text-slate-500">—</span>;
  return (
    <>
      {formatNumber(row.search.impressions)} / {formatNumber(row.search.clicks)}
    </>
  );
}

/** The funnel as a table on a wide screen, as one card per page on a phone (no sideways scrolling). */
export function PageFunnelTable({ report, days }: { report: PagesReport; days: number }) {
  if (report.pages.length === 0) return <EmptyState>No AI crawls or citations in this period.</EmptyState>;
  return (
    <>
      <div className="hidden lg:block">
        <table className="data-table" data-testid="pages-table">
          <caption className="sr-only">
            Pages of {report.domain}, last {report.periodDays} days
          </caption>
          <Header report={report} days={days} />
          <tbody>
            {report.pages.map((p) => (
              <tr key={p.path}>
                <th scope="row" className="break-all text-left font-mono text-xs font-normal">
                  {p.path}
                </th>
                <td className="text-right">
                  {formatNumber(p.aiCrawls.total)}
                  <div className="text-xs text-slate-600">{formatNumber(p.aiCrawls.verified)} verified</div>
                </td>
                <td className="whitespace-nowrap">{day(p.firstCrawlAt)}</td>
                <td className="text-right">
                  {formatNumber(p.citations.total)}
                  {p.citations.byEngine.length > 0 ? (
                    <div className="text-xs text-slate-600">{names(p.citations.byEngine)}</div>
                  ) : null}
                  {p.citations.byAssistant.length > 0 ? (
                    <div className="text-xs text-slate-600">via {names(p.citations.byAssistant)}</div>
                  ) : null}
                </td>
                <td>
                  <span className="whitespace-nowrap">{day(p.firstCitationAt)}</span>
                  <div className="text-xs text-slate-600">{lag(p.hoursFromFirstCrawlToFirstCitation)}</div>
                </td>
                <td className="text-right">{formatNumber(p.aiReferredVisits)}</td>
                <td className="text-right whitespace-nowrap">
                  <SearchCell row={p} />
                </td>
                <td className="text-right">
                  {p.sessions === null ? <span className="text-slate-500">—</span> : formatNumber(p.sessions)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 lg:hidden" aria-label={`Pages of ${report.domain}`} data-testid="pages-list">
        {report.pages.map((p) => (
          <li key={p.path} className="rounded-md border border-slate-200 p-3">
            <p className="break-all font-mono text-xs text-slate-900">{p.path}</p>
            <dl className="mt-2 grid grid-cols-3 gap-2 text-sm">
              <div>
                <dt className="text-xs text-slate-600">AI crawls</dt>
                <dd className="font-semibold">{formatNumber(p.aiCrawls.total)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600">Citations</dt>
                <dd className="font-semibold">{formatNumber(p.citations.total)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600">AI-referred</dt>
                <dd className="font-semibold">{formatNumber(p.aiReferredVisits)}</dd>
              </div>
            </dl>
            <p className="mt-2 text-xs text-slate-600">
              {formatNumber(p.aiCrawls.verified)} verified crawls · first crawl {day(p.firstCrawlAt)} · first
              citation {day(p.firstCitationAt)}
              {p.hoursFromFirstCrawlToFirstCitation !== null
                ? ` (${lag(p.hoursFromFirstCrawlToFirstCitation)})`
                : ""}
            </p>
            {p.citations.byEngine.length > 0 ? (
              <p className="text-xs text-slate-600">Cited by {names(p.citations.byEngine)}</p>
            ) : null}
            {p.search !== null || p.sessions !== null ? (
              <p className="text-xs text-slate-600">
                {p.search !== null
                  ? `Search: ${formatNumber(p.search.impressions)} impressions, ${formatNumber(p.search.clicks)} clicks`
                  : ""}
                {p.search !== null && p.sessions !== null ? " · " : ""}
                {p.sessions !== null ? `${formatNumber(p.sessions)} sessions` : ""}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

/** Sort controls for a phone, where the table's headers are not shown. */
export function SortForm({ report, days }: { report: PagesReport; days: number }) {
  return (
    <form method="get" className="mb-3 flex flex-wrap items-end gap-3 lg:hidden">
      <input type="hidden" name="domain" value={report.domain} />
      <input type="hidden" name="days" value={days} />
      <div>
        <label htmlFor="f-sort" className="field-label">
          Sort by
        </label>
        <select id="f-sort" name="sort" defaultValue={report.sort} className="field-input">
          <option value="crawls">AI crawls</option>
          <option value="citations">Citations</option>
          <option value="referrals">AI-referred visits</option>
          <option value="firstCitation">First citation</option>
          <option value="path">Page</option>
        </select>
      </div>
      <div>
        <label htmlFor="f-order" className="field-label">
          Order
        </label>
        <select id="f-order" name="order" defaultValue={report.order} className="field-input">
          <option value="desc">Highest or latest first</option>
          <option value="asc">Lowest or earliest first</option>
        </select>
      </div>
      <button type="submit" className="btn-secondary py-2">
        Sort
      </button>
    </form>
  );
}
