import type { MetricValue } from "@/lib/cwv/result-schema";

export type Rating = MetricValue["rating"];

const RATING_TEXT: Record<Rating, string> = {
  good: "Good",
  "needs-improvement": "Needs improvement",
  poor: "Poor",
};

const RATING_STYLE: Record<Rating, string> = {
  good: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  "needs-improvement": "bg-amber-50 text-amber-900 ring-amber-600/30",
  poor: "bg-red-50 text-red-800 ring-red-600/30",
};

export const SOURCE_TEXT: Record<MetricValue["source"], string> = {
  field: "real users (Chrome UX Report, 75th percentile)",
  lab: "lab (Lighthouse page load)",
  "lab-interactions": "lab (scripted clicks and typing)",
};

/** Milliseconds as people read them; CLS has no unit. */
export function formatMetric(value: number, unit: "ms" | "score"): string {
  if (unit === "score") return value.toFixed(value < 1 ? 3 : 2);
  return value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} B`;
}

export function RatingBadge({ rating }: { rating: Rating }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${RATING_STYLE[rating]}`}
    >
      {RATING_TEXT[rating]}
    </span>
  );
}
