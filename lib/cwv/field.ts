import { type CruxFormFactor, type CruxMetric, queryCruxRecord, readCruxConfig } from "@/lib/providers/crux";
import { type RatedMetric, rateMetric } from "./ratings";
import type { CwvStrategy, FieldData } from "./result-schema";

export type FieldOutcome = { field: FieldData; reason: null } | { field: null; reason: string };

function toFieldMetric(metric: CruxMetric | undefined, name: RatedMetric) {
  if (!metric) return null;
  return { p75: metric.p75, rating: rateMetric(name, metric.p75), histogram: metric.histogram };
}

/** The Chrome UX Report's p75 for the URL (or its origin) on the strategy's form factor, or why there is none. */
export async function fetchFieldData(
  url: string,
  strategy: CwvStrategy,
  opts: { env: Record<string, string | undefined>; signal: AbortSignal; fetch?: typeof fetch },
): Promise<FieldOutcome> {
  const config = readCruxConfig(opts.env);
  if (!config) {
    return {
      field: null,
      reason:
        "Field data (Chrome UX Report) is not offered on this service yet; only lab values are reported.",
    };
  }
  const formFactor: CruxFormFactor = strategy === "desktop" ? "DESKTOP" : "PHONE";
  const lookup = await queryCruxRecord(
    { ...config, signal: opts.signal, fetch: opts.fetch },
    url,
    formFactor,
  );
  if (!lookup.ok) return { field: null, reason: lookup.reason };
  const { record } = lookup;
  return {
    reason: null,
    field: {
      level: record.level,
      key: record.key,
      formFactor: formFactor === "DESKTOP" ? "DESKTOP" : "PHONE",
      collectionPeriod: record.collectionPeriod,
      lcp: toFieldMetric(record.metrics.largest_contentful_paint, "lcp"),
      inp: toFieldMetric(record.metrics.interaction_to_next_paint, "inp"),
      cls: toFieldMetric(record.metrics.cumulative_layout_shift, "cls"),
      fcp: toFieldMetric(record.metrics.first_contentful_paint, "fcp"),
      ttfb: toFieldMetric(record.metrics.experimental_time_to_first_byte, "ttfb"),
      note: lookup.urlMissing
        ? `The Chrome UX Report has no record for this page; these are the values of its whole origin (${record.key}).`
        : null,
    },
  };
}
