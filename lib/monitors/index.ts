/**
 * AI visibility monitoring (the service layer the REST routes, MCP tools and dashboard call). Every function
 * takes `db` first and the account id; inputs are the schemas of ./schemas (client-safe).
 *
 * - monitors: createMonitor, listMonitors, getMonitor, updateMonitor, deleteMonitor, pauseMonitor, resumeMonitor,
 *   suggestPrompts (10 prompts from the site's own keyphrases and questions);
 * - runs: runMonitorNow (charged like a scheduled run), listRuns (cursor-paged, with answers);
 * - report: monitorReport (any period, compare=previous) and reportCsv;
 * - scheduling: monitorScheduleKind (lib/jobs/scheduled.ts plugs it into every job runner).
 */

export { monitorReport, reportCsv } from "./report";
export { listRuns, runMonitorNow } from "./runs";
export * from "./schemas";
export {
  createMonitor,
  deleteMonitor,
  getMonitor,
  listMonitors,
  pauseMonitor,
  resumeMonitor,
  updateMonitor,
} from "./service";
export { suggestPrompts } from "./suggest";
