export interface SpendPoint {
  day: string;
  spent: number;
  refunded: number;
}

/**
 * Daily spend and refunds as a server-rendered SVG: no chart library on the overview page, which keeps its
 * main thread free. The numbers are also in a visually hidden table for screen readers.
 */
export function SpendBars({ data }: { data: SpendPoint[] }) {
  const width = 480;
  const height = 200;
  const pad = { top: 10, right: 8, bottom: 24, left: 34 };
  const max = Math.max(10, ...data.map((d) => Math.max(d.spent, d.refunded)));
  const step = Math.ceil(max / 4 / 5) * 5 || 5;
  const top = step * 4;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const slot = plotW / Math.max(1, data.length);
  const barW = Math.max(2, (slot - 4) / 2);
  const y = (v: number) => pad.top + plotH - (v / top) * plotH;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto max-h-64 w-full"
        role="img"
        aria-labelledby="spend-title"
      >
        <title id="spend-title">{`Credits spent and refunded per day, last ${data.length} days`}</title>
        {[0, 1, 2, 3, 4].map((i) => (
          <g key={i}>
            <line x1={pad.left} x2={width - pad.right} y1={y(i * step)} y2={y(i * step)} stroke="#e2e8f0" />
            <text x={pad.left - 6} y={y(i * step) + 4} textAnchor="end" fontSize="12" fill="#334155">
              {i * step}
            </text>
          </g>
        ))}
        {data.map((d, i) => {
          const x = pad.left + i * slot + 2;
          return (
            <g key={d.day}>
              {d.spent > 0 ? (
                <rect x={x} y={y(d.spent)} width={barW} height={y(0) - y(d.spent)} fill="#4338ca" />
              ) : null}
              {d.refunded > 0 ? (
                <rect
                  x={x + barW}
                  y={y(d.refunded)}
                  width={barW}
                  height={y(0) - y(d.refunded)}
                  fill="#0d9488"
                />
              ) : null}
              {(data.length - 1 - i) % 7 === 0 ? (
                <text x={x + barW} y={height - 6} textAnchor="middle" fontSize="12" fill="#334155">
                  {d.day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-2 flex gap-4 text-sm text-slate-700">
        <span className="flex items-center gap-1">
          <span className="inline-block size-3 rounded-sm bg-indigo-700" aria-hidden="true" /> Spent
        </span>
        <span className="flex items-center gap-1">
          <span className="inline-block size-3 rounded-sm bg-teal-600" aria-hidden="true" /> Refunded
        </span>
      </figcaption>
      <table className="sr-only">
        <caption>Daily credits</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Spent</th>
            <th scope="col">Refunded</th>
          </tr>
        </thead>
        <tbody>
          {data
            .filter((d) => d.spent > 0 || d.refunded > 0)
            .map((d) => (
              <tr key={d.day}>
                <td>{d.day}</td>
                <td>{d.spent}</td>
                <td>{d.refunded}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  );
}
