"use client";
// Charts are client-only and load after the page, keeping recharts out of the first bundle.
import dynamic from "next/dynamic";

const placeholder = () => <div className="h-60 animate-pulse rounded-md bg-slate-100" aria-hidden="true" />;

export const LazyCitationChart = dynamic(() => import("./citation-chart"), {
  ssr: false,
  loading: placeholder,
});
export const LazyVisibilityChart = dynamic(() => import("./visibility-chart"), {
  ssr: false,
  loading: placeholder,
});
export const LazyShareOfVoiceChart = dynamic(() => import("./share-of-voice-chart"), {
  ssr: false,
  loading: placeholder,
});
