// A server-rendered line chart of a schedule's scores (0–100) over its completed runs, one line per score, with
// its values in words for screen readers.
/** Scores run from 0 to SCORE_TOP; the axis has a gridline at the bottom, the middle and the top. */
const SCORE_TOP = 100;
const SCORE_GRID = [0, SCORE_TOP / 2, SCORE_TOP];
const COLORS = ["#0f766e", "#1d4ed8", "#b45309", "#7c3aed", "#be123c", "#334155"];

export function ScoreTrend({
  points,
  title,
}: {
  points: { at: string; scores: Record<string, number> }[];
  title: string;
}) {
  const names = [...new Set(points.flatMap((p) => Object.keys(p.scores)))].slice(0, COLORS.length);
  if (points.length === 0 || names.length === 0) return null;
  const w = 480;
  const h = 140;
  const pad = 24;
  const x = (i: number) => (points.length === 1 ? w / 2 : pad + (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v: number) => h - pad - (Math.max(0, Math.min(100, v)) * (h - 2 * pad)) / 100;
  const latest = points[points.length - 1]!;
  const summary = names
    .map((n) => {
      const first = points.find((p) => n in p.scores)?.scores[n];
      return `${n} ${latest.scores[n] ?? "–"}${first !== undefined && points.length > 1 ? ` (first ${first})` : ""}`;
    })
    .join(", ");
  return (
    <figure className="mt-2">
      <svg
        viewBox={`0 0 ${w} ${h}`}
        className="h-auto w-full max-w-xl"
        role="img"
        aria-label={`${title}: ${points.length} runs; latest ${summary}`}
      >
        {SCORE_GRID.map((v) => (
          <g key={v}>
            <line x1={pad} x2={w - pad} y1={y(v)} y2={y(v)} stroke="#e2e8f0" />
            <text x={2} y={y(v) + 4} fontSize="10" fill="#475569">
              {v}
            </text>
          </g>
        ))}
        {names.map((n, k) => {
          const pts = points
            .map((p, i) => (n in p.scores ? `${x(i)},${y(p.scores[n]!)}` : null))
            .filter(Boolean)
            .join(" ");
          return (
            <g key={n}>
              <polyline points={pts} fill="none" stroke={COLORS[k]} strokeWidth="2" />
              {points.map((p, i) =>
                n in p.scores ? (
                  <circle key={p.at} cx={x(i)} cy={y(p.scores[n]!)} r="2.5" fill={COLORS[k]} />
                ) : null,
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex flex-wrap gap-3 text-xs text-slate-700">
        {names.map((n, k) => (
          <span key={n} className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-2 w-3" style={{ background: COLORS[k] }} />
            {n}: {latest.scores[n] ?? "–"}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
