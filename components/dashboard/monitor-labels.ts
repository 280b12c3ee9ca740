// Plain words for a monitor's schedule, status and runs (server and client safe: no imports).

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function scheduleText(s: { every: "day" | "week"; hour: number; timeZone: string; weekday?: string }) {
  const at = `${String(s.hour).padStart(2, "0")}:00`;
  return s.every === "day"
    ? `Daily at ${at} (${s.timeZone})`
    : `Weekly on ${cap(s.weekday ?? "monday")} at ${at} (${s.timeZone})`;
}

export function statusText(m: { status: "active" | "paused"; pauseReason: string | null }) {
  if (m.status === "active") return "Active";
  if (m.pauseReason === "domain_removed") return "Paused: the domain was removed from the account";
  return "Paused by a member of the account";
}

const SKIP_REASONS: Record<string, string> = {
  insufficient_credits: "not enough credits",
  monthly_cap: "the monthly credit cap",
};

export function runStatusText(r: { status: string; skipReason: string | null }) {
  if (r.status === "skipped")
    return `Skipped: ${SKIP_REASONS[r.skipReason ?? ""] ?? r.skipReason ?? "no reason"}`;
  return cap(r.status);
}

/** A rate as a whole percentage; "–" when nothing was observed. */
export const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? "–" : `${Math.round(v * 100)}%`;
