import type { ReactNode } from "react";
import type { DomainTimeline } from "@/lib/dashboard/domain-timeline";

const num = (v: number | null) => (v === null ? "—" : v.toLocaleString("en-US"));
const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)}%`);
const sum = (values: (number | null)[]) =>
  values.every((v) => v === null) ? null : values.reduce<number>((s, v) => s + (v ?? 0), 0);

/**
 * Search, analytics, AI bots, citations and AI visibility of one domain on one daily axis: a table (readable
 * by screen readers and on small screens), newest day first, with the window's totals above it.
 */
export function DomainTimelinePanel({ timeline }: { timeline: DomainTimeline }) {
  const days = [...timeline.days].reverse();
  const totals = [
    { label: "Search clicks", value: num(sum(days.map((d) => d.searchClicks))) },
    { label: "Visits", value: num(sum(days.map((d) => d.visits))) },
    { label: "AI-referred visits", value: num(sum(days.map((d) => d.aiReferredVisits))) },
    { label: "AI bot visits", value: num(sum(days.map((d) => d.aiBotVisits))) },
    { label: "AI citations", value: num(sum(days.map((d) => d.citations))) },
  ];
  return (
    <section
      aria-labelledby="timeline-title"
      className="mt-4 min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id="timeline-title" className="text-base font-semibold text-slate-900">
        {timeline.domain}: search, traffic and AI, last {timeline.days.length} days
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5">
        {totals.map((t) => (
          <div key={t.label}>
            <dt className="text-xs text-slate-600">{t.label}</dt>
            <dd className="text-xl font-semibold text-slate-900">{t.value}</dd>
          </div>
        ))}
      </dl>
      {timeline.notes.length > 0 ? (
        <ul className="mt-3 text-sm text-amber-800">
          {timeline.notes.map((n) => (
            <li key={n.source}>
              {n.source === "search" ? "Search Console" : "Analytics"}: {n.message}
            </li>
          ))}
        </ul>
      ) : null}
      <ScrollRegion label="Search, traffic and AI figures per day">
        <table className="w-full text-right text-sm">
          <caption className="sr-only">
            Per day, newest first; a dash means the source is not connected.
          </caption>
          <thead className="text-xs text-slate-600">
            <tr>
              <th scope="col" className="py-1 text-left">
                Day (UTC)
              </th>
              <th scope="col">Search clicks</th>
              <th scope="col">Impressions</th>
              <th scope="col">Visits</th>
              <th scope="col">AI-referred</th>
              <th scope="col">AI bot visits</th>
              <th scope="col">Citations</th>
              <th scope="col">AI citation rate</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 font-mono">
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row" className="py-1 text-left font-normal">
                  {d.day}
                </th>
                <td>{num(d.searchClicks)}</td>
                <td>{num(d.searchImpressions)}</td>
                <td>{num(d.visits)}</td>
                <td>{num(d.aiReferredVisits)}</td>
                <td>{num(d.aiBotVisits)}</td>
                <td>{num(d.citations)}</td>
                <td>{pct(d.citationRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

/** A sideways-scrolling box reachable by keyboard (axe: scrollable-region-focusable). */
function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y: a scrolling region must be reachable by keyboard, named as a group (not a landmark)
    <div className="mt-3 overflow-x-auto" role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
