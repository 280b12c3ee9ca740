import { z } from "zod";

const CWV_STRATEGIES = ["mobile", "desktop"] as const;
export type CwvStrategy = (typeof CWV_STRATEGIES)[number];

const RATINGS = ["good", "needs-improvement", "poor"] as const;
export type Rating = (typeof RATINGS)[number];

/** Where a number came from: the Lighthouse navigation, the scripted interaction pass, or real users (CrUX). */
const METRIC_SOURCES = ["lab", "lab-interactions", "field"] as const;

const metricValue = z.object({
  /** Milliseconds, except CLS (unitless). */
  value: z.number(),
  rating: z.enum(RATINGS),
  source: z.enum(METRIC_SOURCES),
});
export type MetricValue = z.infer<typeof metricValue>;

const savings = z.object({
  /** Estimated milliseconds saved per metric, as Lighthouse estimates them (LCP, FCP, TBT, CLS, INP). */
  metricSavings: z.record(z.string(), z.number()),
  savingsMs: z.number().nullable(),
  savingsBytes: z.number().nullable(),
});

const auditFinding = z.object({
  id: z.string(),
  title: z.string(),
  displayValue: z.string().nullable(),
  score: z.number().nullable(),
  ...savings.shape,
});
export type AuditFinding = z.infer<typeof auditFinding>;

const pageNode = z.object({
  selector: z.string().nullable(),
  snippet: z.string().nullable(),
  label: z.string().nullable(),
});

const interaction = z.object({
  kind: z.enum(["button", "link", "menu", "details", "text-input"]),
  /** Visible text, aria-label or name of the element, shortened. */
  label: z.string(),
});
export type Interaction = z.infer<typeof interaction>;

const fieldMetric = z.object({
  /** p75 over the collection period: ms, or unitless for CLS. */
  p75: z.number(),
  rating: z.enum(RATINGS),
  /** Share of page loads in the good / needs-improvement / poor bins. */
  histogram: z.array(z.object({ start: z.number(), end: z.number().nullable(), density: z.number() })),
});

const fieldData = z.object({
  /** Which CrUX record answered: the page itself, or its whole origin after the page had no record. */
  level: z.enum(["url", "origin"]),
  key: z.string(),
  formFactor: z.enum(["PHONE", "DESKTOP"]),
  collectionPeriod: z.object({ firstDate: z.string(), lastDate: z.string() }).nullable(),
  lcp: fieldMetric.nullable(),
  inp: fieldMetric.nullable(),
  cls: fieldMetric.nullable(),
  fcp: fieldMetric.nullable(),
  ttfb: fieldMetric.nullable(),
  /** Set when the URL had no record and the origin answered instead. */
  note: z.string().nullable(),
});
export type FieldData = z.infer<typeof fieldData>;

export const coreWebVitalsResult = z.object({
  url: z.string(),
  finalUrl: z.string(),
  strategy: z.enum(CWV_STRATEGIES),
  /** Lighthouse performance category, 0–100, from the navigation run. */
  performanceScore: z.number().int().min(0).max(100),
  /** LCP, CLS and INP come from the field (p75) when CrUX has them, as PageSpeed Insights reports them. */
  lcp: metricValue,
  cls: metricValue,
  /** Null when neither the field nor the interaction pass measured it; `inpReason` says why. */
  inp: metricValue.nullable(),
  inpReason: z.string().nullable(),
  fcp: metricValue,
  tbt: metricValue,
  speedIndex: metricValue,
  ttfb: metricValue.nullable(),
  /** Every lab value, whatever the top-level fields show. */
  lab: z.object({
    lcp: metricValue,
    cls: metricValue,
    inp: metricValue.nullable(),
    fcp: metricValue,
    tbt: metricValue,
    speedIndex: metricValue,
    ttfb: metricValue.nullable(),
  }),
  interactions: z.object({
    made: z.array(interaction),
    /** The conditions of the interaction pass (CPU slowdown), since they differ from the simulated navigation. */
    conditions: z.string(),
  }),
  lcpElement: pageNode.nullable(),
  layoutShifts: z.array(pageNode.extend({ score: z.number() })),
  opportunities: z.array(auditFinding),
  diagnostics: z.array(auditFinding),
  field: fieldData.nullable(),
  fieldReason: z.string().nullable(),
  /** Requests of the page the service refused to make (private, loopback or metadata addresses). */
  blockedRequests: z.array(z.object({ target: z.string(), reason: z.string() })),
  /** The final screenshot as a data URL (JPEG), when Lighthouse took one. */
  screenshot: z.string().nullable(),
  warnings: z.array(z.string()),
  lighthouseVersion: z.string(),
  chromiumVersion: z.string(),
  fetchedAt: z.string(),
});
export type CoreWebVitalsResult = z.infer<typeof coreWebVitalsResult>;
