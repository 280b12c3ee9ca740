"use client";

import { ScrollRegion } from "@/components/ui/scroll-region";
import type { AuditFinding, CoreWebVitalsResult, FieldData } from "@/lib/cwv/result-schema";
import { formatBytes, formatMetric, RatingBadge } from "./cwv-format";

type PageNode = NonNullable<CoreWebVitalsResult["lcpElement"]>;

function NodeText({ node }: { node: PageNode }) {
  return (
    <>
      {node.label ? <span className="font-medium">{node.label}</span> : null}
      {node.selector ? <code className="block break-all text-xs text-slate-600">{node.selector}</code> : null}
      {node.snippet ? <code className="block break-all text-xs text-slate-700">{node.snippet}</code> : null}
    </>
  );
}

/** The LCP element, the layout-shift culprits and the requests the service refused to make for the page. */
export function CwvPageElements({ result }: { result: CoreWebVitalsResult }) {
  return (
    <section aria-labelledby="cwv-elements" className="space-y-3">
      <h3 id="cwv-elements" className="text-base font-semibold text-slate-900">
        Page elements
      </h3>
      <div className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
        <h4 className="font-medium text-slate-900">Largest Contentful Paint element</h4>
        {result.lcpElement ? <NodeText node={result.lcpElement} /> : <p>Lighthouse did not name one.</p>}
      </div>
      <ScrollRegion label="Layout shifts" className="rounded-lg border border-slate-200 bg-white p-3">
        <table className="data-table">
          <caption className="mb-2 text-left text-sm font-semibold text-slate-900">
            Layout shifts ({result.layoutShifts.length})
          </caption>
          <thead>
            <tr>
              <th scope="col">Element that moved</th>
              <th scope="col" className="text-right">
                Shift score
              </th>
            </tr>
          </thead>
          <tbody>
            {result.layoutShifts.length === 0 ? (
              <tr>
                <td colSpan={2}>No layout shift was recorded.</td>
              </tr>
            ) : (
              result.layoutShifts.map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: shifts have no id and never change order
                <tr key={i}>
                  <td>
                    <NodeText node={s} />
                  </td>
                  <td className="text-right">{formatMetric(s.score, "score")}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </ScrollRegion>
      <div className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
        <h4 className="font-medium text-slate-900">Blocked requests ({result.blockedRequests.length})</h4>
        {result.blockedRequests.length === 0 ? (
          <p>None: the page asked for no private, loopback or metadata address.</p>
        ) : (
          <>
            <p className="text-slate-700">
              The page asked for these addresses; the measuring browser is not allowed to reach them.
            </p>
            <ul className="mt-1 list-disc pl-6">
              {result.blockedRequests.map((b) => (
                <li key={b.target}>
                  <code className="break-all">{b.target}</code>: {b.reason}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}

function savingsText(f: AuditFinding): string {
  const parts: string[] = [];
  for (const [metric, value] of Object.entries(f.metricSavings)) {
    if (value > 0) parts.push(`${metric} −${formatMetric(value, metric === "CLS" ? "score" : "ms")}`);
  }
  if (f.savingsMs) parts.push(`about ${formatMetric(f.savingsMs, "ms")}`);
  if (f.savingsBytes) parts.push(`${formatBytes(f.savingsBytes)} less to load`);
  return parts.join(", ");
}

/** Lighthouse's opportunities or diagnostics, each with what fixing it is estimated to save. */
export function CwvFindings({ title, findings }: { title: string; findings: AuditFinding[] }) {
  return (
    <section aria-label={title} className="space-y-2">
      <h3 className="text-base font-semibold text-slate-900">
        {title} ({findings.length})
      </h3>
      {findings.length === 0 ? (
        <p className="text-sm text-slate-700">Nothing to report.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {findings.map((f) => {
            const savings = savingsText(f);
            return (
              <li key={f.id} className="p-3 text-sm">
                <p className="font-medium text-slate-900">
                  {f.title}
                  {f.displayValue ? (
                    <span className="font-normal text-slate-700"> — {f.displayValue}</span>
                  ) : null}
                </p>
                {savings ? <p className="text-slate-700">Estimated savings: {savings}</p> : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

const FIELD_ROWS: { key: "lcp" | "inp" | "cls" | "fcp" | "ttfb"; name: string; unit: "ms" | "score" }[] = [
  { key: "lcp", name: "Largest Contentful Paint", unit: "ms" },
  { key: "inp", name: "Interaction to Next Paint", unit: "ms" },
  { key: "cls", name: "Cumulative Layout Shift", unit: "score" },
  { key: "fcp", name: "First Contentful Paint", unit: "ms" },
  { key: "ttfb", name: "Time to First Byte", unit: "ms" },
];

const percent = (density: number) => `${Math.round(density * 100)}%`;

function FieldTable({ field }: { field: FieldData }) {
  return (
    <div className="overflow-x-auto">
      <table className="data-table">
        <caption className="mb-2 text-left text-sm font-semibold text-slate-900">
          75th percentile of real visits ({field.formFactor.toLowerCase()})
        </caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col" className="text-right">
              p75
            </th>
            <th scope="col">Rating</th>
            <th scope="col">Good / needs improvement / poor</th>
          </tr>
        </thead>
        <tbody>
          {FIELD_ROWS.map((row) => {
            const m = field[row.key];
            return (
              <tr key={row.key}>
                <th scope="row" className="font-medium">
                  {row.name}
                </th>
                <td className="text-right">{m ? formatMetric(m.p75, row.unit) : "no data"}</td>
                <td>{m ? <RatingBadge rating={m.rating} /> : null}</td>
                <td>{m ? m.histogram.map((b) => percent(b.density)).join(" / ") : null}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Chrome UX Report data, or why there is none. */
export function CwvFieldData({ result }: { result: CoreWebVitalsResult }) {
  const { field } = result;
  return (
    <section
      aria-labelledby="cwv-field"
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-3"
    >
      <h3 id="cwv-field" className="text-base font-semibold text-slate-900">
        Field data (Chrome UX Report)
      </h3>
      {field ? (
        <>
          <p className="text-sm text-slate-700">
            Record for the {field.level === "url" ? "page" : "whole origin"}{" "}
            <code className="break-all">{field.key}</code>
            {field.collectionPeriod
              ? `, visits from ${field.collectionPeriod.firstDate} to ${field.collectionPeriod.lastDate}`
              : null}
            . The headline LCP, INP and CLS above come from it; the lab values stay in the table above.
          </p>
          {field.note ? <p className="text-sm text-amber-950">{field.note}</p> : null}
          <FieldTable field={field} />
        </>
      ) : (
        <p className="text-sm text-slate-700">
          No field data: {result.fieldReason ?? "the Chrome UX Report was not asked."} The vitals above are
          lab values.
        </p>
      )}
    </section>
  );
}
