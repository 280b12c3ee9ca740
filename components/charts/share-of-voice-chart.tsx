"use client";

import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

export interface ShareOfVoicePoint {
  /** The run's label on the axis (its date). */
  label: string;
  /** Percentages, or null when the run had no mention of any tracked brand. */
  value: number | null;
  band: [number, number] | null;
  n: number;
}

/**
 * The brand's share of voice per run as a line, with its 95% Wilson interval as a shaded band: where the band
 * is wide the run had few mentions, and two runs whose bands overlap may not differ at all.
 */
export default function ShareOfVoiceChart({ points }: { points: ShareOfVoicePoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
        <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#334155" }} />
        <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 12, fill: "#334155" }} />
        <Tooltip
          formatter={(value, name) =>
            Array.isArray(value) ? [`${value[0]}–${value[1]}%`, name] : [`${value}%`, name]
          }
        />
        <Area
          dataKey="band"
          name="95% interval"
          stroke="none"
          fill="#c7d2fe"
          fillOpacity={0.8}
          isAnimationActive={false}
          connectNulls
        />
        <Line
          dataKey="value"
          name="Share of voice"
          stroke="#4338ca"
          strokeWidth={2}
          dot={{ r: 3 }}
          isAnimationActive={false}
          connectNulls
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
