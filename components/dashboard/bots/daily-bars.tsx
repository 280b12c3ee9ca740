import { formatNumber } from "@/lib/dashboard/format";

const COLORS = ["#4338ca", "#0d9488", "#b45309", "#be123c", "#6d28d9", "#334155", "#15803d"];

export interface BarSeries {
  label: string;
  /** One value per day, in the order of `days`. */
  values: number[];
}

const W = 600;
const H = 200;

/** "2026-11-28" → "Nov 28" (UTC). */
function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/**
 * Daily counts as stacked bars, drawn on the server as SVG: no script, a fixed height (nothing shifts when it
 * appears), a summary for screen readers, and each bar's figures in its tooltip.
 */
export function DailyBars({ days, series, label }: { days: string[]; series: BarSeries[]; label: string }) {
  const totals = days.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const sum = totals.reduce((a, b) => a + b, 0);
  const max = Math.max(1, ...totals);
  const peak = totals.indexOf(Math.max(...totals));
  const slot = W / Math.max(1, days.length);
  const gap = Math.min(4, slot * 0.2);
  const summary = `${label}: ${formatNumber(sum)} in ${days.length} days${
    sum > 0 ? `, most on ${shortDay(days[peak]!)} (${formatNumber(totals[peak]!)})` : ""
  }.`;
  const ticks = [0, Math.floor((days.length - 1) / 2), days.length - 1].filter(
    (v, i, a) => a.indexOf(v) === i && v >= 0,
  );
  return (
    <figure className="m-0">
      <div className="flex gap-2">
        <div
          className="flex h-48 w-10 shrink-0 flex-col justify-between text-right text-xs text-slate-600"
          aria-hidden="true"
        >
          <span>{formatNumber(max)}</span>
          <span>0</span>
        </div>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          className="block h-48 w-full min-w-0 border-b border-l border-slate-300"
          role="img"
          aria-label={summary}
        >
          <line x1="0" x2={W} y1={H / 2} y2={H / 2} stroke="#e2e8f0" strokeDasharray="4 4" />
          {days.map((day, i) => {
            let y = H;
            const parts = series.map((s, k) => {
              const v = s.values[i] ?? 0;
              const h = (v / max) * (H - 4);
              y -= h;
              return v > 0 ? (
                <rect
                  key={s.label}
                  x={i * slot + gap / 2}
                  y={y}
                  width={Math.max(1, slot - gap)}
                  height={h}
                  fill={COLORS[k % COLORS.length]}
                />
              ) : null;
            });
            return (
              <g key={day}>
                <title>
                  {`${shortDay(day)}: ${formatNumber(totals[i]!)}${
                    series.length > 1
                      ? ` (${series
                          .filter((s) => (s.values[i] ?? 0) > 0)
                          .map((s) => `${s.label} ${formatNumber(s.values[i]!)}`)
                          .join(", ")})`
                      : ""
                  }`}
                </title>
                {parts}
              </g>
            );
          })}
        </svg>
      </div>
      <div className="ml-12 flex justify-between text-xs text-slate-600" aria-hidden="true">
        {ticks.map((t) => (
          <span key={t}>{shortDay(days[t]!)}</span>
        ))}
      </div>
      {series.length > 1 || series[0]?.label ? (
        <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
          {series.map((s, k) => (
            <span key={s.label} className="inline-flex items-center gap-1.5">
              <span
                className="inline-block h-2.5 w-2.5 rounded-sm"
                style={{ backgroundColor: COLORS[k % COLORS.length] }}
                aria-hidden="true"
              />
              {s.label} {formatNumber(s.values.reduce((a, b) => a + b, 0))}
            </span>
          ))}
        </figcaption>
      ) : null}
    </figure>
  );
}
