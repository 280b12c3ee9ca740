"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface BacklinksHistoryPoint {
  takenOn: string;
  referringDomains: number | null;
  authorityScore: number | null;
}

/** Referring domains and authority score per web graph snapshot, oldest first. */
export default function BacklinksHistoryChart({ data }: { data: BacklinksHistoryPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="takenOn" tick={{ fontSize: 12, fill: "#334155" }} />
        <YAxis yAxisId="left" allowDecimals={false} tick={{ fontSize: 12, fill: "#334155" }} />
        <YAxis
          yAxisId="right"
          orientation="right"
          domain={[0, 100]}
          tick={{ fontSize: 12, fill: "#334155" }}
        />
        <Tooltip />
        <Legend />
        <Line
          yAxisId="left"
          dataKey="referringDomains"
          name="Referring domains"
          stroke="#4338ca"
          isAnimationActive={false}
        />
        <Line
          yAxisId="right"
          dataKey="authorityScore"
          name="Authority score"
          stroke="#0d9488"
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}
