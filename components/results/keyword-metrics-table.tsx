"use client";

import { type Column, DataTable } from "@/components/ui/data-table";
import type { KeywordMetrics } from "@/lib/contract/keyword-metrics";
import type { KeywordMetricsResult } from "@/lib/keywords/metrics-schema";

const number = (n: number | null) => (n === null ? "—" : n.toLocaleString("en-US"));

/** A 12-month trend as a small line; the figures themselves are in its accessible label and tooltip. */
function Sparkline({ trend }: { trend: KeywordMetrics["trend"] }) {
  const points = trend.filter((t) => t.searchVolume !== null);
  if (points.length < 2) return <span className="text-slate-500">—</span>;
  const values = points.map((t) => t.searchVolume as number);
  const max = Math.max(...values);
  const min = Math.min(...values);
  const w = 96;
  const h = 24;
  const coords = values
    .map((v, i) => {
      const x = (i / (values.length - 1)) * w;
      const y = max === min ? h / 2 : h - ((v - min) / (max - min)) * h;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
  const label = `Monthly searches, oldest first: ${points
    .map((t) => `${t.year}-${String(t.month).padStart(2, "0")} ${number(t.searchVolume)}`)
    .join(", ")}`;
  return (
    <svg
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      role="img"
      aria-label={label}
      className="overflow-visible"
    >
      <title>{label}</title>
      <polyline points={coords} fill="none" stroke="#4338ca" strokeWidth={1.5} />
    </svg>
  );
}

const COLUMNS: readonly Column<KeywordMetrics>[] = [
  { header: "Keyword", cell: (k) => k.keyword, className: "break-words" },
  { header: "Monthly searches", cell: (k) => number(k.searchVolume), align: "right" },
  { header: "Difficulty (0–100)", cell: (k) => number(k.difficulty), align: "right" },
  { header: "CPC (USD)", cell: (k) => (k.cpc === null ? "—" : k.cpc.toFixed(2)), align: "right" },
  { header: "Intent", cell: (k) => k.intent ?? "—" },
  { header: "12-month trend", cell: (k) => <Sparkline trend={k.trend} /> },
];

export function KeywordMetricsTable({ rows, empty }: { rows: readonly KeywordMetrics[]; empty: string }) {
  return <DataTable columns={COLUMNS} rows={rows} rowKey={(k) => k.keyword} empty={empty} />;
}

export function KeywordMetricsResultView({ result }: { result: KeywordMetricsResult }) {
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">
        {result.keywords.length} keywords, location {String(result.location)}, language {result.language}.
        Source: DataForSEO. A dash means the provider has no figure.
      </p>
      <KeywordMetricsTable rows={result.keywords} empty="No keywords." />
    </div>
  );
}
