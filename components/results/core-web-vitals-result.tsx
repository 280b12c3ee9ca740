"use client";

import { useId } from "react";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { THRESHOLDS } from "@/lib/cwv/ratings";
import type { CoreWebVitalsResult, MetricValue } from "@/lib/cwv/result-schema";
import { ScoreCard } from "./checklist";
import { CwvFieldData, CwvFindings, CwvPageElements } from "./cwv-details";
import { formatMetric, RatingBadge, SOURCE_TEXT } from "./cwv-format";

type Vital = "lcp" | "inp" | "cls";

const VITALS: { key: Vital; name: string; full: string; unit: "ms" | "score" }[] = [
  { key: "lcp", name: "LCP", full: "Largest Contentful Paint", unit: "ms" },
  { key: "inp", name: "INP", full: "Interaction to Next Paint", unit: "ms" },
  { key: "cls", name: "CLS", full: "Cumulative Layout Shift", unit: "score" },
];

/** A vital on its own scale: good up to the first threshold, poor past the second (the meter colours it). */
function VitalGauge({ vital, metric }: { vital: (typeof VITALS)[number]; metric: MetricValue }) {
  const id = useId();
  const [good, poor] = THRESHOLDS[vital.key];
  const max = Math.max(poor * 1.5, metric.value);
  return (
    <div className="mt-2">
      <meter
        aria-labelledby={id}
        className="h-3 w-full"
        min={0}
        max={max}
        low={good}
        high={poor}
        optimum={0}
        value={metric.value}
      />
      <p id={id} className="sr-only">
        {vital.name} {formatMetric(metric.value, vital.unit)}, good up to {formatMetric(good, vital.unit)},
        poor over {formatMetric(poor, vital.unit)}
      </p>
      <p className="flex justify-between text-xs text-slate-600" aria-hidden="true">
        <span>0</span>
        <span>good ≤ {formatMetric(good, vital.unit)}</span>
        <span>poor &gt; {formatMetric(poor, vital.unit)}</span>
      </p>
    </div>
  );
}

function VitalCard({ vital, result }: { vital: (typeof VITALS)[number]; result: CoreWebVitalsResult }) {
  const metric = result[vital.key];
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`vital-${vital.key}`}>
      <h4 className="text-sm text-slate-600">
        <abbr title={vital.full}>{vital.name}</abbr> <span className="sr-only">({vital.full})</span>
      </h4>
      {metric ? (
        <>
          <p className="mt-1 flex flex-wrap items-center gap-2">
            <span className="text-3xl font-semibold text-slate-900">
              {formatMetric(metric.value, vital.unit)}
            </span>
            <RatingBadge rating={metric.rating} />
          </p>
          <VitalGauge vital={vital} metric={metric} />
          <p className="mt-2 text-xs text-slate-600">Source: {SOURCE_TEXT[metric.source]}</p>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-700">Not measured. {result.inpReason}</p>
      )}
    </li>
  );
}

const LAB_ROWS: { key: keyof CoreWebVitalsResult["lab"]; name: string; unit: "ms" | "score" }[] = [
  { key: "lcp", name: "Largest Contentful Paint", unit: "ms" },
  { key: "cls", name: "Cumulative Layout Shift", unit: "score" },
  { key: "inp", name: "Interaction to Next Paint", unit: "ms" },
  { key: "fcp", name: "First Contentful Paint", unit: "ms" },
  { key: "tbt", name: "Total Blocking Time", unit: "ms" },
  { key: "speedIndex", name: "Speed Index", unit: "ms" },
  { key: "ttfb", name: "Time to First Byte", unit: "ms" },
];

function LabTable({ lab }: { lab: CoreWebVitalsResult["lab"] }) {
  return (
    <ScrollRegion label="Lab measurements" className="rounded-lg border border-slate-200 bg-white p-3">
      <table className="data-table">
        <caption className="mb-2 text-left text-sm font-semibold text-slate-900">Lab measurements</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col" className="text-right">
              Value
            </th>
            <th scope="col">Rating</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {LAB_ROWS.map((row) => {
            const m = lab[row.key];
            return (
              <tr key={row.key}>
                <th scope="row" className="font-medium">
                  {row.name}
                </th>
                <td className="text-right">{m ? formatMetric(m.value, row.unit) : "not measured"}</td>
                <td>{m ? <RatingBadge rating={m.rating} /> : null}</td>
                <td>{m ? SOURCE_TEXT[m.source] : null}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** The screenshot is Lighthouse's own data URL; anything else is not shown. */
const isImageDataUrl = (s: string | null): s is string =>
  !!s && /^data:image\/(jpeg|png|webp);base64,/.test(s);

export function CoreWebVitalsResultView({ result }: { result: CoreWebVitalsResult }) {
  const { interactions } = result;
  return (
    <div className="space-y-5" data-testid="core-web-vitals-result">
      <p className="break-all text-sm text-slate-700">
        Measured <span className="font-mono">{result.finalUrl}</span>
        {result.finalUrl !== result.url ? <> (asked for {result.url})</> : null} on {result.strategy} ·
        Lighthouse {result.lighthouseVersion} in Chromium {result.chromiumVersion} ·{" "}
        {/* One spelling on the server and in every browser, whatever their time zone. */}
        <time dateTime={result.fetchedAt}>{result.fetchedAt.slice(0, 16).replace("T", " ")} UTC</time>
      </p>
      {result.warnings.length > 0 ? (
        <ul className="list-disc space-y-1 rounded-md bg-amber-50 p-3 pl-8 text-sm text-amber-950">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="cwv-vitals" className="space-y-3">
        {/* Not "Core Web Vitals": the job's own region already carries the tool's title (landmarks are unique). */}
        <h3 id="cwv-vitals" className="text-base font-semibold text-slate-900">
          Vitals and performance score
        </h3>
        <div className="grid gap-3 lg:grid-cols-4">
          <ScoreCard label="Performance score" score={result.performanceScore} note="Lighthouse, lab" />
          <ul className="grid gap-3 sm:grid-cols-3 lg:col-span-3">
            {VITALS.map((v) => (
              <VitalCard key={v.key} vital={v} result={result} />
            ))}
          </ul>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-700">
          <h4 className="font-medium text-slate-900">Interactions made for the lab INP</h4>
          {interactions.made.length > 0 ? (
            <ul className="mt-1 list-disc pl-6">
              {interactions.made.map((i, n) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: interactions have no id and never change order
                <li key={`${i.kind}-${n}`}>
                  {i.kind}: {i.label}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1">None.</p>
          )}
          <p className="mt-1 text-xs text-slate-600">{interactions.conditions}</p>
        </div>
      </section>
      <LabTable lab={result.lab} />
      {isImageDataUrl(result.screenshot) ? (
        <figure className="rounded-lg border border-slate-200 bg-white p-3">
          {/* biome-ignore lint/performance/noImgElement: a data URL from the result; next/image has nothing to optimise */}
          <img
            src={result.screenshot}
            alt={`The page ${result.finalUrl} at the end of the load`}
            className="max-h-96 w-auto border border-slate-200"
          />
          <figcaption className="mt-2 text-xs text-slate-600">
            Final screenshot ({result.strategy})
          </figcaption>
        </figure>
      ) : null}
      <CwvPageElements result={result} />
      <CwvFindings title="Opportunities" findings={result.opportunities} />
      <CwvFindings title="Diagnostics" findings={result.diagnostics} />
      <CwvFieldData result={result} />
    </div>
  );
}
