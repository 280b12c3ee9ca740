export {
  CRUX_METRICS,
  type CruxConfig,
  type CruxFormFactor,
  type CruxLookup,
  type CruxMetric,
  type CruxMetricName,
  type CruxRecord,
  DEFAULT_CRUX_BASE_URL,
  queryCruxRecord,
  readCruxConfig,
} from "./client";
