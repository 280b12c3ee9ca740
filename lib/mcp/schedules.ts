import { idempotencyKeySchema } from "@/lib/contract/idempotency-key";
import { parseValue } from "@/lib/errors";
import { jobEvents } from "@/lib/jobs/events";
import { parsePathParam, routeArgs } from "@/lib/routes/contract";
import {
  createScheduleRoute,
  listSchedulesRoute,
  runScheduleRoute,
  scheduleHistoryRoute,
  scheduleIdParam,
} from "@/lib/routes/schedules";
import {
  createSchedule,
  type HistoryQuery,
  type ListSchedulesQuery,
  listHistory,
  listSchedules,
  runScheduleNow,
  scheduleCreateInput,
} from "@/lib/schedules";
import type { McpToolDef } from "./tool-def";

const listInput = routeArgs(listSchedulesRoute);
const runInput = routeArgs(runScheduleRoute).extend({
  idempotencyKey: idempotencyKeySchema
    .optional()
    .describe(
      "As the REST Idempotency-Key: the same key on the same schedule answers the original run, charged once.",
    ),
});
const historyInput = routeArgs(scheduleHistoryRoute);

const scheduleId = (args: unknown) => parsePathParam(scheduleIdParam, (args as { id?: unknown })?.id);

/** The scheduled audits' MCP tools: the REST routes' bodies and parameters as typed arguments. */
export const scheduleTools: McpToolDef[] = [
  {
    name: "create_schedule",
    description: `${createScheduleRoute.summary}. ${createScheduleRoute.description}`,
    input: scheduleCreateInput,
    annotations: {
      title: "Schedule an audit",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    run: (ctx, args) => createSchedule(ctx.db, ctx.accountId, parseValue(scheduleCreateInput, args)),
  },
  {
    name: "list_schedules",
    description: `${listSchedulesRoute.description} Free.`,
    input: listInput,
    annotations: {
      title: "List scheduled audits",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: (ctx, args) =>
      listSchedules(ctx.db, ctx.accountId, parseValue(listInput, args ?? {}) as ListSchedulesQuery),
  },
  {
    name: "run_schedule",
    description: runScheduleRoute.description,
    input: runInput,
    annotations: {
      title: "Run a scheduled audit now",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    run: async (ctx, args) => {
      const { idempotencyKey } = parseValue(runInput, args) as { idempotencyKey?: string };
      const started = await runScheduleNow(ctx.db, ctx.accountId, scheduleId(args), { idempotencyKey });
      if (!started.replayed && started.jobId) jobEvents.emit("created", started.jobId);
      return started;
    },
  },
  {
    name: "get_schedule_history",
    description: `${scheduleHistoryRoute.description} Free.`,
    input: historyInput,
    annotations: {
      title: "Get a scheduled audit's history",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    run: (ctx, args) => {
      const { id: _id, ...query } = parseValue(historyInput, args) as HistoryQuery & { id: string };
      return listHistory(ctx.db, ctx.accountId, scheduleId(args), query);
    },
  },
];
