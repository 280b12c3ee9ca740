"use client";

import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { purposeLabel } from "@/lib/dashboard/labels";

const COLORS = ["#4338ca", "#0d9488", "#b45309", "#be123c", "#6d28d9", "#334155", "#15803d"];

/** Stacked daily visits, one series per bot purpose. */
export default function BotChart({
  data,
  series,
}: {
  data: Record<string, string | number>[];
  series: string[];
}) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <AreaChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis
          dataKey="day"
          tickFormatter={(d: string) => d.slice(5)}
          tick={{ fontSize: 12, fill: "#334155" }}
          minTickGap={16}
        />
        <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#334155" }} />
        <Tooltip />
        <Legend />
        {series.map((s, i) => (
          <Area
            key={s}
            type="monotone"
            dataKey={s}
            name={purposeLabel(s)}
            stackId="1"
            stroke={COLORS[i % COLORS.length]}
            fill={COLORS[i % COLORS.length]}
            fillOpacity={0.25}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </ResponsiveContainer>
  );
}
