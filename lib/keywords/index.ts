export type { KeywordMetricsInput, KeywordMetricsResult } from "./keyword-metrics";
export {
  keywordMetricsAvailability,
  runKeywordMetrics,
} from "./keyword-metrics";
export {
  KeywordResearchError,
  keywordResearchAvailability,
  runKeywordResearch,
} from "./run-keyword-research";
export type { KeywordResearchInput, KeywordResearchResult } from "./schema";
export { keywordResearchInput, keywordResearchResult } from "./schema";
