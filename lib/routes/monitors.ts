import { z } from "zod";
import {
  listMonitorsQuery,
  listRunsQuery,
  MONITOR_LIMITS,
  monitorCreateInput,
  monitorDeleted,
  monitorList,
  monitorReport,
  monitorUpdateInput,
  monitorView,
  reportQuery,
  runList,
  runStarted,
} from "@/lib/monitors/schemas";
import { monitoredAnswer } from "@/lib/tools/monitored-answer/definition";
import { defineRoute } from "./contract";

export const monitorIdParam = {
  name: "id",
  description: "The monitor's id.",
  schema: z.uuid().transform((id) => id.toLowerCase()),
  example: "00000000-0000-4000-8000-000000000035",
  notFound: "Monitor",
} as const;

const PRICE = `${monitoredAnswer.cost} credits per answer (one engine answering one prompt once)`;

const CREATE_DESCRIPTION = `A monitor asks its prompts (1 to ${MONITOR_LIMITS.prompts}, each 1 to 2000 characters) of its engines (default: every engine available here; an engine that is not available is 400 naming the available ones) ${MONITOR_LIMITS.samples.default} times each by default (\`samples\` ${MONITOR_LIMITS.samples.min}–${MONITOR_LIMITS.samples.max}) on a schedule: every day, or every week on \`weekday\`, at \`hour\` (0–23) in \`timeZone\` (an IANA zone such as Europe/Paris; daylight saving time is followed). Runs start at a fixed minute inside that hour, the same for the monitor every time. \`domain\` must be registered on the account (403 otherwise); up to ${MONITOR_LIMITS.competitors} \`competitors\` (domains) are tracked beside it; \`brandNames\` are the names the engines may use for the brand (default: the site's own name and its domain). Each run costs ${PRICE}, charged when the run starts; every answer that fails is refunded. A scheduled run the balance or the optional \`monthlyCreditCap\` (credits per calendar month in the monitor's time zone) cannot cover is skipped, recorded with its reason, and announced (webhook \`monitor.run_skipped\`, a dashboard notice, an email to the owners). The answer carries \`estimate\`: answers and credits per run and per month.`;

/** POST /monitors: create a monitor (free; its runs are billed per answer). */
export const createMonitorRoute = defineRoute({
  method: "post",
  path: "/monitors",
  operationId: "createMonitor",
  tag: "Monitors",
  summary: "Create an AI visibility monitor",
  description: CREATE_DESCRIPTION,
  body: {
    name: "MonitorCreateInput",
    schema: monitorCreateInput,
    example: {
      domain: "example.com",
      prompts: ["best specialty coffee roaster in Lyon", "where to buy fresh coffee beans online"],
      competitors: ["competitor.example"],
      samples: 3,
      schedule: { every: "week", weekday: "monday", hour: 9, timeZone: "Europe/Paris" },
      monthlyCreditCap: 2000,
    },
  },
  success: { status: 201, description: "The monitor.", data: { name: "Monitor", schema: monitorView } },
  errors: ["VALIDATION_ERROR"],
  cost: `free; each run ${PRICE}`,
});

/** GET /monitors: the account's monitors, newest first, cursor-paged. */
export const listMonitorsRoute = defineRoute({
  method: "get",
  path: "/monitors",
  operationId: "listMonitors",
  tag: "Monitors",
  summary: "The account's monitors",
  description:
    "The account's monitors, newest first, each with its schedule, next run and cost estimate; filter by `domain`; page with `cursor` (the previous page's `nextCursor`).",
  query: listMonitorsQuery,
  queryExample: { limit: "20" },
  success: {
    status: 200,
    description: "A page of monitors.",
    data: { name: "MonitorList", schema: monitorList },
  },
  errors: ["VALIDATION_ERROR"],
});

/** GET /monitors/{id}: one monitor. */
export const getMonitorRoute = defineRoute({
  method: "get",
  path: "/monitors/{id}",
  operationId: "getMonitor",
  tag: "Monitors",
  summary: "One monitor",
  description: "A monitor of the account; 404 when it is not the account's.",
  pathParams: [monitorIdParam],
  success: { status: 200, description: "The monitor.", data: { name: "Monitor", schema: monitorView } },
  errors: ["NOT_FOUND"],
});

/** PATCH /monitors/{id}: change a monitor's prompts, engines, samples, schedule, cap or competitors. */
export const updateMonitorRoute = defineRoute({
  method: "patch",
  path: "/monitors/{id}",
  operationId: "updateMonitor",
  tag: "Monitors",
  summary: "Change a monitor",
  description:
    "Changes the fields given (the same rules as at creation; the domain stays). A new schedule moves the next run. Runs already started keep the settings they started with.",
  pathParams: [monitorIdParam],
  body: {
    name: "MonitorUpdateInput",
    schema: monitorUpdateInput,
    example: { samples: 5, monthlyCreditCap: null },
  },
  success: { status: 200, description: "The monitor.", data: { name: "Monitor", schema: monitorView } },
  errors: ["NOT_FOUND", "VALIDATION_ERROR"],
});

/** DELETE /monitors/{id}: delete a monitor with its runs and answers. */
export const deleteMonitorRoute = defineRoute({
  method: "delete",
  path: "/monitors/{id}",
  operationId: "deleteMonitor",
  tag: "Monitors",
  summary: "Delete a monitor",
  description:
    "Deletes the monitor, its runs and their answers. Credit transactions stay. A run under way stops being answered.",
  pathParams: [monitorIdParam],
  success: { status: 200, description: "Deleted.", data: { name: "MonitorDeleted", schema: monitorDeleted } },
  errors: ["NOT_FOUND"],
});

/** POST /monitors/{id}/pause: no more scheduled runs until resumed. */
export const pauseMonitorRoute = defineRoute({
  method: "post",
  path: "/monitors/{id}/pause",
  operationId: "pauseMonitor",
  tag: "Monitors",
  summary: "Pause a monitor",
  description:
    "Stops the monitor's scheduled runs (`status` paused, `pauseReason` paused_by_user). Removing the monitor's domain from the account pauses it too (`pauseReason` domain_removed).",
  pathParams: [monitorIdParam],
  success: { status: 200, description: "The monitor.", data: { name: "Monitor", schema: monitorView } },
  errors: ["NOT_FOUND"],
});

/** POST /monitors/{id}/resume: scheduled runs again from the next slot. */
export const resumeMonitorRoute = defineRoute({
  method: "post",
  path: "/monitors/{id}/resume",
  operationId: "resumeMonitor",
  tag: "Monitors",
  summary: "Resume a paused monitor",
  description:
    "Schedules the monitor again from its next slot. A monitor paused because its domain was removed resumes once the domain is registered on the account again (403 until then).",
  pathParams: [monitorIdParam],
  success: { status: 200, description: "The monitor.", data: { name: "Monitor", schema: monitorView } },
  errors: ["NOT_FOUND"],
});

/** POST /monitors/{id}/run: a run now (202), billed like a scheduled run. */
export const runMonitorRoute = defineRoute({
  method: "post",
  path: "/monitors/{id}/run",
  operationId: "runMonitor",
  tag: "Monitors",
  summary: "Run a monitor now",
  description: `Starts a run at once, billed like a scheduled one (${PRICE}, charged now; failed answers refunded). 402 when the balance cannot cover the run, 400 (\`reason\` monthly_cap) when it would pass the monitor's monthly cap; nothing is charged then. The same \`Idempotency-Key\` on the same monitor answers the original run and charges nothing. Follow it with GET /monitors/{id}/runs.`,
  pathParams: [monitorIdParam],
  idempotencyKey: true,
  success: {
    status: 202,
    description: "The run started.",
    data: { name: "MonitorRunStarted", schema: runStarted },
  },
  errors: ["NOT_FOUND", "INSUFFICIENT_CREDITS", "VALIDATION_ERROR"],
  cost: PRICE,
});

/** GET /monitors/{id}/runs: the monitor's runs, newest first, with their answers. */
export const listMonitorRunsRoute = defineRoute({
  method: "get",
  path: "/monitors/{id}/runs",
  operationId: "listMonitorRuns",
  tag: "Monitors",
  summary: "A monitor's runs and answers",
  description:
    "The monitor's runs, newest first (kept 13 months): `status` (running, completed, failed, skipped with `skipReason`), `creditsCharged`, `creditsRefunded`, and each answer: engine, prompt, sample, whether the brand was mentioned and where, its sentiment (and the method that judged it), `cited` (the URLs the engine attached to its answer), `retrieved` (the URLs of the search results it read) and `queries` (the searches it ran, where its API reports them), and `error` for an answer that failed (refunded). Page with `cursor`.",
  pathParams: [monitorIdParam],
  query: listRunsQuery,
  queryExample: { limit: "5" },
  success: { status: 200, description: "A page of runs.", data: { name: "MonitorRunList", schema: runList } },
  errors: ["NOT_FOUND", "VALIDATION_ERROR"],
});

/** GET /monitors/{id}/report: rates with n and 95% intervals for any period, JSON or CSV. */
export const getMonitorReportRoute = defineRoute({
  method: "get",
  path: "/monitors/{id}/report",
  operationId: "getMonitorReport",
  tag: "Monitors",
  summary: "A monitor's report",
  description:
    "The monitor's answers in a period (`from`, `to`; default the last 30 days): in total, per engine, per prompt × engine and per competitor, the mention rate, citation rate (an answer citing a page of the domain) and share of voice (the brand's mentions among all tracked brands' mentions), each `{value, n, low, high}` with its 95% Wilson score interval (continuity-corrected), the average position and the sentiment split. With `compare=previous`, the same-length period before it and each rate's `change` `{delta, significant}` by a two-sided two-proportion z-test at 95%: a change that is not significant is no change. `citedDomains` ranks the domains the engines cited, each classed own, competitor, user_generated, reference, news or other; `groundingDiff` tells per prompt × engine whether each page of the domain was cited, retrieved but not cited, or not retrieved at all. `format=csv` answers `text/csv`, one row per scope and rate.",
  pathParams: [monitorIdParam],
  query: reportQuery,
  queryExample: { compare: "previous" },
  success: {
    status: 200,
    description: "The report.",
    data: { name: "MonitorReport", schema: monitorReport },
  },
  errors: ["NOT_FOUND", "VALIDATION_ERROR"],
});
