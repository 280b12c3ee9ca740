/** Server-side entry points of the AI visibility tools (they load the providers' SDKs). */

export { purgeObservations, readVisibility, recordObservations } from "./observations";
export {
  type AiCitationCheckInput,
  type AiCitationCheckRun,
  type BrandVisibilityInput,
  type BrandVisibilityRun,
  type CheckContext,
  failedEngines,
  runBrandVisibility,
  runCitationCheck,
  separateUsage,
} from "./run-checks";
export * from "./schemas";
export { SENTIMENT_METHOD } from "./sentiment";
