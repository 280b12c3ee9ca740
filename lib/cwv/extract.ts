import type { Result as LhResult } from "lighthouse";
import { rateByScore, rateMetric } from "./ratings";
import type { AuditFinding, CoreWebVitalsResult, MetricValue } from "./result-schema";

type Audit = LhResult["audits"][string];
type NodeDetails = { selector?: string; snippet?: string; nodeLabel?: string; type?: string };

const OPPORTUNITY_LIMIT = 8;
const DIAGNOSTIC_LIMIT = 8;
/** Metric audits are reported as metrics, not findings; these are bookkeeping, not advice. */
const NOT_FINDINGS = new Set([
  "first-contentful-paint",
  "largest-contentful-paint",
  "speed-index",
  "total-blocking-time",
  "cumulative-layout-shift",
  "interaction-to-next-paint",
  "max-potential-fid",
  "interactive",
  "metrics",
  "screenshot-thumbnails",
  "final-screenshot",
  "main-thread-tasks",
  "network-requests",
  "network-rtt",
  "network-server-latency",
  "resource-summary",
  "script-treemap-data",
  "diagnostics",
]);

export type LabMetrics = CoreWebVitalsResult["lab"];

function lab(value: number, rating: MetricValue["rating"]): MetricValue {
  return { value: round(value), rating, source: "lab" };
}

function round(value: number): number {
  return value < 10 ? Math.round(value * 1000) / 1000 : Math.round(value);
}

function numeric(audit: Audit | undefined, name: string): number {
  const value = audit?.numericValue;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new Error(`Lighthouse did not measure ${name}.`);
  }
  return value;
}

/** The navigation's lab metrics, with Google's ratings for the vitals and Lighthouse's for TBT and SI. */
export function extractLabMetrics(lhr: LhResult): Omit<LabMetrics, "inp"> {
  const a = lhr.audits;
  const metricsItem = (a.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0];
  const ttfb = metricsItem?.timeToFirstByte;
  return {
    lcp: lab(
      numeric(a["largest-contentful-paint"], "LCP"),
      rateMetric("lcp", numeric(a["largest-contentful-paint"], "LCP")),
    ),
    cls: lab(
      numeric(a["cumulative-layout-shift"], "CLS"),
      rateMetric("cls", numeric(a["cumulative-layout-shift"], "CLS")),
    ),
    fcp: lab(
      numeric(a["first-contentful-paint"], "FCP"),
      rateMetric("fcp", numeric(a["first-contentful-paint"], "FCP")),
    ),
    tbt: lab(numeric(a["total-blocking-time"], "TBT"), rateByScore(a["total-blocking-time"]?.score)),
    speedIndex: lab(numeric(a["speed-index"], "Speed Index"), rateByScore(a["speed-index"]?.score)),
    ttfb: typeof ttfb === "number" && Number.isFinite(ttfb) ? lab(ttfb, rateMetric("ttfb", ttfb)) : null,
  };
}

/** INP of the interaction timespan, or why there is none. */
export function extractLabInp(timespan: LhResult | null): { inp: MetricValue | null; reason: string | null } {
  const audit = timespan?.audits["interaction-to-next-paint"];
  const value = audit?.numericValue;
  if (
    !audit ||
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    audit.scoreDisplayMode === "notApplicable"
  ) {
    return {
      inp: null,
      reason: "The browser recorded no interaction with the page, so there is no INP to report.",
    };
  }
  return {
    inp: { value: round(value), rating: rateMetric("inp", value), source: "lab-interactions" },
    reason: null,
  };
}

function toNode(details: NodeDetails | undefined) {
  if (!details) return null;
  return {
    selector: details.selector ?? null,
    snippet: details.snippet ?? null,
    label: details.nodeLabel ?? null,
  };
}

/** The LCP element from the LCP breakdown insight (Lighthouse 13 puts the node beside the subparts). */
export function extractLcpElement(lhr: LhResult): CoreWebVitalsResult["lcpElement"] {
  const details = lhr.audits["lcp-breakdown-insight"]?.details as { items?: NodeDetails[] } | undefined;
  const node = details?.items?.find((item) => item.type === "node");
  return toNode(node);
}

/** Elements that moved, worst first, from the layout-shifts audit. */
export function extractLayoutShifts(lhr: LhResult): CoreWebVitalsResult["layoutShifts"] {
  const details = lhr.audits["layout-shifts"]?.details as
    | { items?: { node?: NodeDetails; score?: number }[] }
    | undefined;
  return (details?.items ?? [])
    .filter((item) => typeof item.score === "number")
    .map((item) => ({
      ...(toNode(item.node) ?? { selector: null, snippet: null, label: null }),
      score: round(item.score as number),
    }))
    .sort((x, y) => y.score - x.score)
    .slice(0, 10);
}

function toFinding(audit: Audit): AuditFinding {
  const details = audit.details as { overallSavingsMs?: number; overallSavingsBytes?: number } | undefined;
  const metricSavings: Record<string, number> = {};
  for (const [metric, value] of Object.entries(audit.metricSavings ?? {})) {
    if (typeof value === "number" && value > 0) metricSavings[metric] = round(value);
  }
  return {
    id: audit.id,
    title: audit.title,
    displayValue: audit.displayValue ?? null,
    score: audit.score ?? null,
    metricSavings,
    savingsMs: typeof details?.overallSavingsMs === "number" ? Math.round(details.overallSavingsMs) : null,
    savingsBytes:
      typeof details?.overallSavingsBytes === "number" ? Math.round(details.overallSavingsBytes) : null,
  };
}

/**
 * Opportunities are failing audits with an estimated saving (time or bytes), largest first;
 * diagnostics are the other failing audits of the performance category.
 */
export function extractFindings(lhr: LhResult): Pick<CoreWebVitalsResult, "opportunities" | "diagnostics"> {
  const refs = lhr.categories.performance?.auditRefs ?? [];
  const findings: AuditFinding[] = [];
  for (const ref of refs) {
    const audit = lhr.audits[ref.id];
    if (!audit || NOT_FINDINGS.has(audit.id)) continue;
    if (audit.scoreDisplayMode === "notApplicable" || audit.scoreDisplayMode === "manual") continue;
    if (audit.scoreDisplayMode === "error" || audit.score === null || audit.score >= 0.9) continue;
    findings.push(toFinding(audit));
  }
  const weight = (f: AuditFinding) =>
    Math.max(f.savingsMs ?? 0, ...Object.values(f.metricSavings).map((v) => (v < 1 ? v * 1000 : v)));
  const hasSavings = (f: AuditFinding) =>
    (f.savingsMs ?? 0) > 0 || (f.savingsBytes ?? 0) > 0 || Object.keys(f.metricSavings).length > 0;
  const opportunities = findings
    .filter(hasSavings)
    .sort((x, y) => weight(y) - weight(x) || (y.savingsBytes ?? 0) - (x.savingsBytes ?? 0))
    .slice(0, OPPORTUNITY_LIMIT);
  const diagnostics = findings
    .filter((f) => !hasSavings(f))
    .sort((x, y) => (x.score ?? 0) - (y.score ?? 0))
    .slice(0, DIAGNOSTIC_LIMIT);
  return { opportunities, diagnostics };
}

export function extractScreenshot(lhr: LhResult): string | null {
  const details = lhr.audits["final-screenshot"]?.details as { data?: string } | undefined;
  return typeof details?.data === "string" && details.data.startsWith("data:image/") ? details.data : null;
}

export function extractWarnings(lhr: LhResult): string[] {
  return (lhr.runWarnings ?? []).map((w) => (typeof w === "string" ? w : String(w))).slice(0, 10);
}
