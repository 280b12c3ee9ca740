"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface VisibilityChartSeries {
  engine: string;
  series: { day: string; citationRate: number; mentionRate: number }[];
}

const COLORS = ["#4338ca", "#0f766e", "#b45309", "#be123c"];

/** One line per engine: the share of its answers that cited (or mentioned) the domain, per UTC day. */
export default function VisibilityChart({
  engines,
  metric,
}: {
  engines: VisibilityChartSeries[];
  metric: "citationRate" | "mentionRate";
}) {
  const days = [...new Set(engines.flatMap((e) => e.series.map((p) => p.day)))].sort();
  const rows = days.map((day) => {
    const row: Record<string, string | number> = { day };
    for (const e of engines) {
      const point = e.series.find((p) => p.day === day);
      if (point) row[e.engine] = Math.round(point[metric] * 100);
    }
    return row;
  });
  return (
    <ResponsiveContainer width="100%" height={260}>
      <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
        <XAxis dataKey="day" tick={{ fontSize: 12, fill: "#334155" }} />
        <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 12, fill: "#334155" }} />
        <Tooltip formatter={(value) => `${value}%`} />
        <Legend />
        {engines.map((e, i) => (
          <Line
            key={e.engine}
            type="monotone"
            dataKey={e.engine}
            stroke={COLORS[i % COLORS.length]}
            connectNulls
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
