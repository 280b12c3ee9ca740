/**
 * Scheduled site audits (the service layer the REST routes, MCP tools and dashboard call): a registered domain's
 * URL audited daily or weekly by a catalogue tool, each run billed as the tool's job, its result kept 13 months
 * as history and compared with the run before it.
 *
 * - schedules: createSchedule, listSchedules, getSchedule, updateSchedule (time, cap, pause / resume),
 *   deleteSchedule;
 * - runs: runScheduleNow (billed like a scheduled run), listHistory (cursor-paged, with changes),
 *   scheduleOverview (the dashboard's trend, open issues with their age, last changes);
 * - scheduling: auditScheduleKind (lib/jobs/scheduled.ts plugs it into every job runner).
 */
export { listHistory, type ScheduleOverview, scheduleOverview } from "./history";
export { runScheduleNow } from "./runs";
export * from "./schemas";
export {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  updateSchedule,
} from "./service";
