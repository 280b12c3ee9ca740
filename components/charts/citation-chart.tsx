"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export default function CitationChart({ data }: { data: { bot: string; count: number }[] }) {
  return (
    <ResponsiveContainer width="100%" height={Math.max(160, data.length * 40)}>
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 24 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" horizontal={false} />
        <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12, fill: "#334155" }} />
        <YAxis type="category" dataKey="bot" width={120} tick={{ fontSize: 12, fill: "#334155" }} />
        <Tooltip />
        <Bar dataKey="count" name="Citations" fill="#4338ca" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
