export { CWV_ERROR_CODES, CwvError, type CwvErrorCode } from "./errors";
export { rateMetric, THRESHOLDS } from "./ratings";
export {
  type CoreWebVitalsResult,
  CWV_STRATEGIES,
  type CwvStrategy,
  coreWebVitalsResult,
  type FieldData,
  type MetricValue,
} from "./result-schema";
export { type CoreWebVitalsContext, type CoreWebVitalsInput, runCoreWebVitals } from "./run";
