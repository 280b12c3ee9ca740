/**
 * Server-side entry points of the AI visibility tools (they load the providers' SDKs through ask-engine).
 *
 * - `runCitationCheck` / `runBrandVisibility` take the tools' parsed input and `{ signal, fetch, env?, deadline? }`
 *   and return the result with an operator-only `usage` per engine; `separateUsage` splits it off so the job
 *   stores the customer's result (which parses with `aiCitationCheckResult` / `brandVisibilityResult`).
 * - `failedEngines(result)` names the engines to refund (100 credits each); when every engine fails the run
 *   throws ToolError `ENGINES_FAILED` and the job is refunded in full.
 * - `recordObservations` runs in the job's completion transaction; `readVisibility` serves GET /visibility;
 *   `purgeObservations` belongs to the periodic purge.
 * - Engine configuration (client-safe): `listEngines`, `checkEngineAvailability`, `DEFAULT_MODELS` in
 *   lib/providers/engines.ts.
 */
export { recordObservations } from "./observations";
export {
  failedEngines,
  runBrandVisibility,
  runCitationCheck,
} from "./run-checks";
export * from "./schemas";
