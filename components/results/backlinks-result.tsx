"use client";

import dynamic from "next/dynamic";
import { type Column, DataTable } from "@/components/ui/data-table";
import type { BacklinksOverviewResult, DomainAuthorityResult } from "@/lib/webgraph/backlinks-schema";

// recharts loads after the page, as the dashboard's other charts do.
const HistoryChart = dynamic(() => import("@/components/charts/backlinks-history-chart"), {
  ssr: false,
  loading: () => <div className="h-60 animate-pulse rounded-md bg-slate-100" aria-hidden="true" />,
});

const number = (n: number | null | undefined) =>
  n === null || n === undefined ? "—" : n.toLocaleString("en-US");

const SOURCE_TEXT: Record<BacklinksOverviewResult["source"], string> = {
  webgraph: "the imported Common Crawl web graph",
  dataforseo: "DataForSEO Backlinks",
  both: "the imported Common Crawl web graph and DataForSEO Backlinks",
};

type Webgraph = NonNullable<BacklinksOverviewResult["webgraph"]>;
type Referrer = Webgraph["topReferringDomains"][number];

const REFERRER_COLUMNS: readonly Column<Referrer>[] = [
  { header: "Referring domain", cell: (d) => d.domain, className: "break-all" },
  { header: "Authority score", cell: (d) => number(d.authorityScore), align: "right" },
  { header: "Harmonic centrality rank", cell: (d) => number(d.harmonicCentralityRank), align: "right" },
  { header: "PageRank rank", cell: (d) => number(d.pageRankRank), align: "right" },
];

function WebgraphSection({ webgraph }: { webgraph: Webgraph }) {
  const history = webgraph.history ?? [];
  return (
    <section className="space-y-3" aria-label="Web graph">
      <h3 className="text-base font-semibold text-slate-900">
        Web graph snapshot {webgraph.snapshot} ({webgraph.takenOn})
      </h3>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-600">Authority score</dt>
          <dd className="text-lg font-semibold">{number(webgraph.rank?.authorityScore)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Referring domains</dt>
          <dd className="text-lg font-semibold">{number(webgraph.referringDomains)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Referring hosts</dt>
          <dd className="text-lg font-semibold">{number(webgraph.referringHosts)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Ranks (harmonic / PageRank)</dt>
          <dd className="text-lg font-semibold">
            {number(webgraph.rank?.harmonicCentralityRank)} / {number(webgraph.rank?.pageRankRank)}
          </dd>
        </div>
      </dl>
      <DataTable
        columns={REFERRER_COLUMNS}
        rows={webgraph.topReferringDomains}
        rowKey={(d) => d.domain}
        empty="No referring domains in this snapshot."
      />
      {history.length > 0 ? (
        <div>
          <h4 className="text-sm font-semibold text-slate-900">History per snapshot</h4>
          <HistoryChart
            data={history.map((h) => ({
              takenOn: h.takenOn,
              referringDomains: h.referringDomains,
              authorityScore: h.rank?.authorityScore ?? null,
            }))}
          />
          <ul className="sr-only">
            {history.map((h) => (
              <li key={h.snapshot}>
                {h.takenOn}: {number(h.referringDomains)} referring domains, authority{" "}
                {number(h.rank?.authorityScore)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function ProviderSection({ p }: { p: NonNullable<BacklinksOverviewResult["dataforseo"]> }) {
  return (
    <section className="space-y-2 text-sm" aria-label="DataForSEO Backlinks">
      <h3 className="text-base font-semibold text-slate-900">DataForSEO Backlinks</h3>
      <p>
        Rank {number(p.rank)} · {number(p.backlinks)} backlinks ({number(p.dofollowBacklinks)} dofollow,{" "}
        {number(p.nofollowBacklinks)} nofollow) · {number(p.referringDomains)} referring domains
      </p>
      {p.topAnchors.length > 0 ? (
        <p>Top anchors: {p.topAnchors.map((a) => `${a.anchor} (${a.backlinks})`).join(", ")}</p>
      ) : null}
      {p.newLost.length > 0 ? (
        <p>
          New / lost links per month:{" "}
          {p.newLost.map((n) => `${n.date.slice(0, 7)} +${n.newBacklinks} −${n.lostBacklinks}`).join(", ")}
        </p>
      ) : null}
    </section>
  );
}

export function BacklinksResultView({ result }: { result: BacklinksOverviewResult }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Backlinks of <span className="font-mono">{result.target}</span>, from {SOURCE_TEXT[result.source]}.
      </p>
      {result.warnings.length > 0 ? (
        <ul className="list-disc space-y-1 rounded-md bg-amber-50 p-3 pl-8 text-sm text-amber-950">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {result.webgraph ? <WebgraphSection webgraph={result.webgraph} /> : null}
      {result.dataforseo ? <ProviderSection p={result.dataforseo} /> : null}
    </div>
  );
}

type AuthorityRow = DomainAuthorityResult["domains"][number];
const AUTHORITY_COLUMNS: readonly Column<AuthorityRow>[] = [
  { header: "Domain", cell: (d) => d.domain, className: "break-all" },
  {
    header: "Authority score",
    cell: (d) => (d.found ? number(d.authorityScore) : "not in graph"),
    align: "right",
  },
  { header: "Harmonic centrality rank", cell: (d) => number(d.harmonicCentralityRank), align: "right" },
  { header: "PageRank rank", cell: (d) => number(d.pageRankRank), align: "right" },
  { header: "Referring domains", cell: (d) => number(d.referringDomains), align: "right" },
  { header: "DataForSEO rank", cell: (d) => number(d.dataforseo?.rank), align: "right" },
];

export function DomainAuthorityResultView({ result }: { result: DomainAuthorityResult }) {
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">
        From {SOURCE_TEXT[result.source]}
        {result.snapshot ? ` (snapshot ${result.snapshot.name}, ${result.snapshot.takenOn})` : ""}.
      </p>
      <DataTable
        columns={AUTHORITY_COLUMNS}
        rows={result.domains}
        rowKey={(d) => d.domain}
        empty="No domains."
      />
    </div>
  );
}
