import { idempotencyKeySchema } from "@/lib/contract/idempotency-key";
import { parseValue } from "@/lib/errors";
import {
  createMonitor,
  type ListMonitorsQuery,
  type ListRunsQuery,
  listMonitors,
  listRuns,
  monitorCreateInput,
  monitorReport,
  type ReportQuery,
  reportCsv,
  runMonitorNow,
} from "@/lib/monitors";
import { parsePathParam, routeArgs } from "@/lib/routes/contract";
import {
  createMonitorRoute,
  getMonitorReportRoute,
  listMonitorRunsRoute,
  listMonitorsRoute,
  monitorIdParam,
  runMonitorRoute,
} from "@/lib/routes/monitors";
import type { McpToolDef } from "./tool-def";

const listInput = routeArgs(listMonitorsRoute);
const runInput = routeArgs(runMonitorRoute).extend({
  idempotencyKey: idempotencyKeySchema
    .optional()
    .describe(
      "As the REST Idempotency-Key: the same key on the same monitor answers the original run, charged once.",
    ),
});
const runsInput = routeArgs(listMonitorRunsRoute);
const reportInput = routeArgs(getMonitorReportRoute);

const monitorId = (args: unknown) => parsePathParam(monitorIdParam, (args as { id?: unknown })?.id);

/** The monitors' MCP tools: the REST routes' bodies and parameters as typed arguments. */
export const monitorTools: McpToolDef[] = [
  {
    name: "create_monitor",
    description: `${createMonitorRoute.summary}. ${createMonitorRoute.description}`,
    input: monitorCreateInput,
    annotations: {
      title: "Create a monitor",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    run: (ctx, args) => createMonitor(ctx.db, ctx.accountId, parseValue(monitorCreateInput, args)),
  },
  {
    name: "list_monitors",
    description: `${listMonitorsRoute.description} Free.`,
    input: listInput,
    annotations: {
      title: "List monitors",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: (ctx, args) =>
      listMonitors(ctx.db, ctx.accountId, parseValue(listInput, args ?? {}) as ListMonitorsQuery),
  },
  {
    name: "run_monitor",
    description: runMonitorRoute.description,
    input: runInput,
    annotations: {
      title: "Run a monitor now",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    run: (ctx, args) => {
      const { idempotencyKey } = parseValue(runInput, args) as { idempotencyKey?: string };
      return runMonitorNow(ctx.db, ctx.accountId, monitorId(args), { idempotencyKey });
    },
  },
  {
    name: "list_monitor_runs",
    description: `${listMonitorRunsRoute.description} Free.`,
    input: runsInput,
    annotations: {
      title: "List a monitor's runs",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: (ctx, args) => {
      const { id: _id, ...query } = parseValue(runsInput, args) as ListRunsQuery & { id: string };
      return listRuns(ctx.db, ctx.accountId, monitorId(args), query);
    },
  },
  {
    name: "get_monitor_report",
    description: `${getMonitorReportRoute.description} With format csv the report comes as \`{csv}\`. Free.`,
    input: reportInput,
    annotations: {
      title: "Get a monitor's report",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: async (ctx, args) => {
      const { id: _id, ...query } = parseValue(reportInput, args) as ReportQuery & { id: string };
      const report = await monitorReport(ctx.db, ctx.accountId, monitorId(args), query);
      return query.format === "csv" ? { csv: reportCsv(report) } : report;
    },
  },
];
