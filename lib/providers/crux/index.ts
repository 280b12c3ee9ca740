export {
  type CruxFormFactor,
  type CruxMetric,
  fetchCruxRecord,
  queryCruxRecord,
  readCruxConfig,
} from "./client";
