export { BACKGROUND_SOURCE } from "./background/background";
export type { KeywordMetricsInput, KeywordMetricsResult } from "./keyword-metrics";
export {
  costKeywordMetrics,
  keywordMetricsAvailability,
  keywordMetricsInput,
  keywordMetricsResult,
  runKeywordMetrics,
} from "./keyword-metrics";
export type { KeywordResearchContext } from "./run-keyword-research";
export {
  KEYWORD_CRAWL_PAGES,
  KeywordResearchError,
  keywordResearchAvailability,
  runKeywordResearch,
} from "./run-keyword-research";
export type { KeywordResearchInput, KeywordResearchResult } from "./schema";
export { keywordResearchInput, keywordResearchResult } from "./schema";
