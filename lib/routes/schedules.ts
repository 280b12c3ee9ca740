import { z } from "zod";
import {
  AUDIT_SCHEDULE_TOOLS,
  historyList,
  historyQuery,
  listSchedulesQuery,
  SCHEDULE_LIMITS,
  scheduleCreateInput,
  scheduleDeleted,
  scheduleList,
  scheduleRunStarted,
  scheduleUpdateInput,
  scheduleView,
} from "@/lib/schedules/schemas";
import { TOOLS } from "@/lib/tools/catalog";
import { defineRoute } from "./contract";
import { EXAMPLE_DOMAIN_PAGE } from "./examples";

export const scheduleIdParam = {
  name: "id",
  description: "The schedule's id.",
  schema: z.uuid().transform((id) => id.toLowerCase()),
  example: "00000000-0000-4000-8000-000000000037",
  notFound: "Schedule",
} as const;

const PRICES = AUDIT_SCHEDULE_TOOLS.map(
  (t) => `${t} ${TOOLS[t].cost({ url: "https://example.com/" } as never)}`,
).join(", ");
const PRICE = `each run at the tool's catalogue price (${PRICES} credits)`;

const CREATE_DESCRIPTION = `Runs \`tool\` (${AUDIT_SCHEDULE_TOOLS.join(", ")}) on \`url\` every day, or every week on \`weekday\`, at \`hour\` (0–23) in \`timeZone\` (an IANA zone such as Europe/Paris; daylight saving time is followed), at a fixed minute inside that hour. The URL's host must be a domain registered on the account or a subdomain of one (403 otherwise); a domain has at most ${SCHEDULE_LIMITS.perDomain} schedules. A tool that cannot run on this service is 400 before anything is stored. \`strategy\` (mobile or desktop) is for core-web-vitals only. Free; ${PRICE}, charged when the run starts as the tool's job; a run whose job fails is refunded. A scheduled run the balance or the optional \`monthlyCreditCap\` (credits per calendar month in the schedule's time zone) cannot cover is skipped, recorded with its reason and announced (webhook \`audit.run_skipped\`, a dashboard notice, an email to the owners). Each completed run is compared with the previous one: webhook \`audit.regressed\` when a score fell by ${SCHEDULE_LIMITS.regressionPoints} points or more or a new error-severity issue appeared, \`audit.completed\` otherwise. The answer carries \`estimate\`: credits per run and per month.`;

/** POST /schedules: schedule an audit of a URL (free; its runs are billed). */
export const createScheduleRoute = defineRoute({
  method: "post",
  path: "/schedules",
  operationId: "createSchedule",
  tag: "Schedules",
  summary: "Schedule an audit",
  description: CREATE_DESCRIPTION,
  body: {
    name: "ScheduleCreateInput",
    schema: scheduleCreateInput,
    example: {
      tool: "seo-aeo-geo-audit",
      url: EXAMPLE_DOMAIN_PAGE,
      every: "week",
      weekday: "monday",
      hour: 7,
      timeZone: "Europe/Paris",
      monthlyCreditCap: 500,
    },
  },
  success: { status: 201, description: "The schedule.", data: { name: "Schedule", schema: scheduleView } },
  errors: ["VALIDATION_ERROR", "FORBIDDEN_SCOPE"],
  cost: `free; ${PRICE}`,
});

/** GET /schedules: the account's schedules, newest first, cursor-paged. */
export const listSchedulesRoute = defineRoute({
  method: "get",
  path: "/schedules",
  operationId: "listSchedules",
  tag: "Schedules",
  summary: "The account's scheduled audits",
  description:
    "The account's schedules, newest first, each with its time, next run and cost estimate; filter by `domain`; page with `cursor` (the previous page's `nextCursor`).",
  query: listSchedulesQuery,
  queryExample: { limit: "20" },
  success: {
    status: 200,
    description: "A page of schedules.",
    data: { name: "ScheduleList", schema: scheduleList },
  },
  errors: ["VALIDATION_ERROR"],
});

/** GET /schedules/{id}: one schedule. */
export const getScheduleRoute = defineRoute({
  method: "get",
  path: "/schedules/{id}",
  operationId: "getSchedule",
  tag: "Schedules",
  summary: "One scheduled audit",
  description: "A schedule of the account; 404 when it is not the account's.",
  pathParams: [scheduleIdParam],
  success: { status: 200, description: "The schedule.", data: { name: "Schedule", schema: scheduleView } },
  errors: ["NOT_FOUND"],
});

/** PATCH /schedules/{id}: change a schedule's time or cap, pause or resume it. */
export const updateScheduleRoute = defineRoute({
  method: "patch",
  path: "/schedules/{id}",
  operationId: "updateSchedule",
  tag: "Schedules",
  summary: "Change a scheduled audit",
  description:
    "Changes the fields given: `hour` and `timeZone`; `every` (with `hour`, `timeZone` and, for a weekly schedule, `weekday`); `monthlyCreditCap` (null for none); `status` paused (no more runs) or active (runs again from the next slot; a schedule paused because its domain was removed resumes once the domain is registered again, 403 until then). The tool and URL stay: create another schedule for another page.",
  pathParams: [scheduleIdParam],
  body: {
    name: "ScheduleUpdateInput",
    schema: scheduleUpdateInput,
    example: { status: "paused" },
  },
  success: { status: 200, description: "The schedule.", data: { name: "Schedule", schema: scheduleView } },
  errors: ["NOT_FOUND", "VALIDATION_ERROR", "FORBIDDEN_SCOPE"],
});

/** DELETE /schedules/{id}: delete a schedule with its history. */
export const deleteScheduleRoute = defineRoute({
  method: "delete",
  path: "/schedules/{id}",
  operationId: "deleteSchedule",
  tag: "Schedules",
  summary: "Delete a scheduled audit",
  description:
    "Deletes the schedule and its history. Credit transactions stay; a run under way finishes as its job.",
  pathParams: [scheduleIdParam],
  success: {
    status: 200,
    description: "Deleted.",
    data: { name: "ScheduleDeleted", schema: scheduleDeleted },
  },
  errors: ["NOT_FOUND"],
});

/** POST /schedules/{id}/run: a run now (202), billed like a scheduled run. */
export const runScheduleRoute = defineRoute({
  method: "post",
  path: "/schedules/{id}/run",
  operationId: "runSchedule",
  tag: "Schedules",
  summary: "Run a scheduled audit now",
  description: `Starts a run at once, billed like a scheduled one (${PRICE}, charged now as the tool's job; refunded if the job fails). 402 when the balance cannot cover it, 400 (\`reason\` monthly_cap) when it would pass the schedule's monthly cap, 400 (\`reason\` tool_not_available_here) when the tool cannot run on this service; nothing is charged then. The same \`Idempotency-Key\` on the same schedule answers the original run and charges nothing. Follow the job with GET /jobs/{id}, the comparison with GET /schedules/{id}/history.`,
  pathParams: [scheduleIdParam],
  idempotencyKey: true,
  success: {
    status: 202,
    description: "The run started.",
    data: { name: "ScheduleRunStarted", schema: scheduleRunStarted },
  },
  errors: ["NOT_FOUND", "INSUFFICIENT_CREDITS", "VALIDATION_ERROR", "FORBIDDEN_SCOPE"],
  cost: PRICE,
});

/** GET /schedules/{id}/history: the runs, newest first, each with its scores and its changes. */
export const scheduleHistoryRoute = defineRoute({
  method: "get",
  path: "/schedules/{id}/history",
  operationId: "getScheduleHistory",
  tag: "Schedules",
  summary: "A scheduled audit's history",
  description: `The schedule's runs, newest first, kept 13 months (after the runs' jobs are purged): \`status\` (running, completed, failed with its \`error\` and refund, skipped with \`skipReason\`), \`scores\` (0–100: the URL audit's score and categories; the SEO/AEO/GEO audit's overall, seo, aeo, geo; Core Web Vitals' performance), \`vitals\` (Core Web Vitals: LCP and INP in ms, CLS, each with its rating), and \`changes\` against the schedule's previous completed run: issues \`new\`, \`fixed\` and \`open\` (still failing; \`worsened\` when a warning became a failure), \`scoreDelta\` per score, \`vitals\` (each metric before and after with its rating change), and \`regressions\` (why the run counts as a regression: a score down ${SCHEDULE_LIMITS.regressionPoints} points or more, a new error-severity issue). Page with \`cursor\`.`,
  pathParams: [scheduleIdParam],
  query: historyQuery,
  queryExample: { limit: "10" },
  success: {
    status: 200,
    description: "A page of runs.",
    data: { name: "ScheduleHistory", schema: historyList },
  },
  errors: ["NOT_FOUND", "VALIDATION_ERROR"],
});
