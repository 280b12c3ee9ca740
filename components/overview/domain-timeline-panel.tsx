import Link from "next/link";
import type { DomainTimeline, TimelineDay } from "@/lib/dashboard/domain-timeline";
import { compareWeeks, describeChange, type WeekComparison } from "@/lib/dashboard/week-compare";

type Source = "search" | "analytics" | "tracking";

const METRICS: { key: keyof TimelineDay; label: string; source: Source }[] = [
  { key: "searchClicks", label: "Search clicks", source: "search" },
  { key: "searchImpressions", label: "Search impressions", source: "search" },
  { key: "visits", label: "Visits", source: "analytics" },
  { key: "aiReferredVisits", label: "Visits referred by AI", source: "analytics" },
  { key: "aiBotVisits", label: "AI bot visits", source: "tracking" },
  { key: "citations", label: "AI citations", source: "tracking" },
];

/** Which connections this server offers: the overview never suggests one a customer cannot make. */
export interface OfferedSources {
  search: boolean;
  analytics: boolean;
}

/**
 * The figures of one domain that have data, each as the last 7 days against the 7 before, and in one line what
 * to connect for the ones missing. A source that is not connected is left out rather than shown as dashes.
 */
export function DomainTimelinePanel({
  timeline,
  offered,
}: {
  timeline: DomainTimeline;
  offered: OfferedSources;
}) {
  const shown: { label: string; c: WeekComparison }[] = [];
  const missing = new Set<Source>();
  for (const m of METRICS) {
    const values = timeline.days.map((d) => d[m.key] as number | null);
    const c = compareWeeks(values);
    // Tracking always answers (zeros when nothing was sent); it has data once a visit was recorded.
    const hasData = c !== null && (m.source !== "tracking" || values.some((v) => (v ?? 0) > 0));
    if (hasData) shown.push({ label: m.label, c });
    else missing.add(m.source);
  }
  const hints = [
    missing.has("search") && offered.search ? (
      <Link key="s" href="/dashboard/connections" className="link">
        connect Google Search Console for search clicks
      </Link>
    ) : null,
    missing.has("analytics") && offered.analytics ? (
      <Link key="a" href="/dashboard/connections" className="link">
        connect GA4 or Plausible for visits
      </Link>
    ) : null,
    missing.has("tracking") ? (
      <Link key="t" href="/dashboard/domains" className="link">
        add the tracking snippet for AI bot visits and citations
      </Link>
    ) : null,
  ].filter(Boolean);
  return (
    <section
      aria-labelledby="timeline-title"
      className="mt-4 min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="domain-timeline"
    >
      <h2 id="timeline-title" className="text-base font-semibold text-slate-900">
        {timeline.domain}: last 7 days against the 7 before
      </h2>
      {shown.length > 0 ? (
        <dl className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-3">
          {shown.map(({ label, c }) => (
            <div key={label} data-testid="week-figure">
              <dt className="text-xs text-slate-600">{label}</dt>
              <dd className="text-xl font-semibold text-slate-900">{c.current.toLocaleString("en-US")}</dd>
              <dd className="text-xs text-slate-600">
                {describeChange(c)} ({c.previous.toLocaleString("en-US")})
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="mt-2 text-sm text-slate-700">No figures for this domain yet.</p>
      )}
      {timeline.notes.length > 0 ? (
        <ul className="mt-3 text-sm text-amber-800">
          {timeline.notes.map((n) => (
            <li key={n.source}>
              {n.source === "search" ? "Search Console" : "Analytics"}: {n.message}
            </li>
          ))}
        </ul>
      ) : null}
      {hints.length > 0 ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="connect-hint">
          For more here:{" "}
          {hints.map((h, i) => (
            <span key={(h as { key: string }).key}>
              {i > 0 ? "; " : ""}
              {h}
            </span>
          ))}
          .
        </p>
      ) : null}
    </section>
  );
}
