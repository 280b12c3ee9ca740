/**
 * The scheduled audits' API shapes (client-safe: zod and client-safe modules only). The same schemas parse the
 * REST bodies and queries, feed the OpenAPI document and MCP tools, and type the services' answers.
 */
import { z } from "zod";
import {
  AUDIT_RUN_STATUSES,
  AUDIT_SCHEDULE_PAUSE_REASONS,
  AUDIT_SCHEDULE_TOOLS,
  AUDIT_SKIP_REASONS,
} from "@/lib/db/schema/audit-schedules";
import { WEEKDAYS } from "@/lib/monitors/schemas";
import { httpUrl } from "@/lib/tools/shared-schemas";

export { AUDIT_SCHEDULE_TOOLS, WEEKDAYS };

export const SCHEDULE_LIMITS = {
  /** Schedules per registered domain. */
  perDomain: 20,
  /** A score falling by at least this many points (0–100) makes a run a regression. */
  regressionPoints: 5,
} as const;
const SCHEDULES_PAGE = { min: 1, max: 100, default: 20 } as const;
const HISTORY_PAGE = { min: 1, max: 50, default: 10 } as const;

const tool = z.enum(AUDIT_SCHEDULE_TOOLS, {
  error: `Must be one of ${AUDIT_SCHEDULE_TOOLS.join(", ")}.`,
});
const every = z.enum(["day", "week"], { error: "Must be day or week." });
const hour = z
  .number({ error: "Must be a whole number from 0 to 23." })
  .int({ error: "Must be a whole number from 0 to 23." })
  .min(0, { error: "Must be a whole number from 0 to 23." })
  .max(23, { error: "Must be a whole number from 0 to 23." });
const timeZone = z
  .string({ error: "Must be an IANA time zone such as Europe/Paris." })
  .min(1, { error: "Must be an IANA time zone such as Europe/Paris." })
  .max(64, { error: "Must be an IANA time zone such as Europe/Paris." });
const weekday = z.preprocess(
  (v) => (typeof v === "string" ? v.toLowerCase() : v),
  z.enum(WEEKDAYS, { error: `Must be one of ${WEEKDAYS.join(", ")}.` }),
);
const monthlyCreditCap = z
  .number({ error: "Must be a positive whole number of credits, or null for no cap." })
  .int({ error: "Must be a positive whole number of credits." })
  .positive({ error: "Must be a positive whole number of credits." })
  .max(100_000_000, { error: "At most 100000000." });
const strategy = z.preprocess(
  (v) => (typeof v === "string" ? v.toLowerCase() : v),
  z.enum(["mobile", "desktop"], { error: "Must be mobile or desktop." }),
);

function weekdayRule(s: { every?: "day" | "week"; weekday?: unknown }, ctx: z.RefinementCtx) {
  if (s.every === "week" && s.weekday === undefined) {
    ctx.addIssue({ code: "custom", path: ["weekday"], message: "Required for a weekly schedule." });
  }
  if (s.every === "day" && s.weekday !== undefined) {
    ctx.addIssue({ code: "custom", path: ["weekday"], message: "Only for a weekly schedule." });
  }
}

export const scheduleCreateInput = z
  .object({
    tool,
    url: httpUrl,
    every,
    hour,
    timeZone,
    weekday: weekday.optional(),
    monthlyCreditCap: monthlyCreditCap.optional(),
    /** Core Web Vitals only: the device the page is measured as (default mobile). */
    strategy: strategy.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    weekdayRule(s, ctx);
    if (s.strategy !== undefined && s.tool !== "core-web-vitals") {
      ctx.addIssue({ code: "custom", path: ["strategy"], message: "Only for core-web-vitals." });
    }
  });
export type ScheduleCreateInput = z.output<typeof scheduleCreateInput>;

export const scheduleUpdateInput = z
  .object({
    every: every.optional(),
    hour: hour.optional(),
    timeZone: timeZone.optional(),
    weekday: weekday.optional(),
    monthlyCreditCap: monthlyCreditCap.nullable().optional(),
    status: z.enum(["active", "paused"], { error: "Must be active or paused." }).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (Object.keys(s).length === 0) {
      ctx.addIssue({ code: "custom", path: [], message: "Give at least one field to change." });
    }
    if (s.every !== undefined) weekdayRule(s, ctx);
    else if (s.weekday !== undefined) {
      ctx.addIssue({ code: "custom", path: ["every"], message: "Give every with weekday." });
    }
    if ((s.every !== undefined || s.weekday !== undefined) && (s.hour === undefined || !s.timeZone)) {
      ctx.addIssue({
        code: "custom",
        path: ["hour"],
        message: "A new schedule needs every, hour and timeZone together.",
      });
    }
  });
export type ScheduleUpdateInput = z.output<typeof scheduleUpdateInput>;

const scheduleEstimate = z.object({
  creditsPerRun: z.number().int(),
  runsPerMonth: z.number(),
  creditsPerMonth: z.number().int(),
});
export type ScheduleEstimate = z.infer<typeof scheduleEstimate>;

export const scheduleView = z.object({
  id: z.uuid(),
  domain: z.string(),
  tool,
  url: z.string(),
  every,
  hour: z.number().int(),
  timeZone: z.string(),
  weekday: z.enum(WEEKDAYS).optional(),
  strategy: z.enum(["mobile", "desktop"]).optional(),
  monthlyCreditCap: z.number().int().nullable(),
  status: z.enum(["active", "paused"]),
  pauseReason: z.enum(AUDIT_SCHEDULE_PAUSE_REASONS).nullable(),
  nextRunAt: z.string().nullable(),
  estimate: scheduleEstimate,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScheduleView = z.infer<typeof scheduleView>;

const limit = (page: { min: number; max: number; default: number }) =>
  z.coerce
    .number({ error: `Must be a whole number from ${page.min} to ${page.max}.` })
    .int({ error: `Must be a whole number from ${page.min} to ${page.max}.` })
    .min(page.min, { error: `Must be a whole number from ${page.min} to ${page.max}.` })
    .max(page.max, { error: `Must be a whole number from ${page.min} to ${page.max}.` })
    .default(page.default);

export const listSchedulesQuery = z
  .object({
    domain: z.string().trim().toLowerCase().min(1).max(253).optional(),
    limit: limit(SCHEDULES_PAGE),
    cursor: z.string().max(200).optional(),
  })
  .strict();
export type ListSchedulesQuery = z.output<typeof listSchedulesQuery>;

export const scheduleList = z.object({ schedules: z.array(scheduleView), nextCursor: z.string().nullable() });
export type ScheduleList = z.infer<typeof scheduleList>;

export const scheduleDeleted = z.object({ id: z.uuid(), deleted: z.literal(true) });

export const historyQuery = z
  .object({ limit: limit(HISTORY_PAGE), cursor: z.string().max(200).optional() })
  .strict();
export type HistoryQuery = z.output<typeof historyQuery>;

const issue = z.object({
  id: z.string(),
  title: z.string(),
  severity: z.string().nullable(),
  status: z.enum(["pass", "warn", "fail"]),
  previousStatus: z.enum(["pass", "warn", "fail"]).nullable(),
  message: z.string(),
});
const VITAL_NAMES = ["lcp", "inp", "cls"] as const;
const rating = z.enum(["good", "needs-improvement", "poor"]);
const vitalChange = z.object({
  metric: z.enum(VITAL_NAMES),
  before: z.number().nullable(),
  after: z.number().nullable(),
  /** after − before (ms; unitless for CLS); null when either run lacks the metric. */
  delta: z.number().nullable(),
  ratingBefore: rating.nullable(),
  ratingAfter: rating.nullable(),
  ratingChanged: z.boolean(),
});

const runChanges = z.object({
  /** The run compared with (the schedule's previous completed run). */
  previousRunId: z.uuid(),
  new: z.array(issue),
  fixed: z.array(issue),
  open: z.array(issue.extend({ worsened: z.boolean() })),
  scoreDelta: z.record(z.string(), z.number()),
  vitals: z.array(vitalChange),
  /** Why the run counts as a regression (empty when it does not). */
  regressions: z.array(z.string()),
});
export type RunChanges = z.infer<typeof runChanges>;

const vitalValue = z.object({ value: z.number(), rating }).nullable();
const runVitals = z.object({ lcp: vitalValue, inp: vitalValue, cls: vitalValue });

const historyRun = z.object({
  id: z.uuid(),
  trigger: z.enum(["schedule", "manual"]),
  status: z.enum(AUDIT_RUN_STATUSES),
  skipReason: z.enum(AUDIT_SKIP_REASONS).nullable(),
  scheduledFor: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** The tool's job while it is kept (7 days); the run's own record is kept 13 months. */
  jobId: z.uuid().nullable(),
  creditsCharged: z.number().int(),
  creditsRefunded: z.number().int(),
  scores: z.record(z.string(), z.number()).nullable(),
  vitals: runVitals.nullable(),
  /** Against the previous completed run; null for the first completed run, and for runs that did not complete. */
  changes: runChanges.nullable(),
  regressed: z.boolean().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type HistoryRun = z.infer<typeof historyRun>;

export const historyList = z.object({ runs: z.array(historyRun), nextCursor: z.string().nullable() });
export type HistoryList = z.infer<typeof historyList>;

export const scheduleRunStarted = z.object({
  runId: z.uuid(),
  scheduleId: z.uuid(),
  jobId: z.uuid().nullable(),
  status: z.enum(AUDIT_RUN_STATUSES),
  creditsCharged: z.number().int(),
  replayed: z.boolean(),
});
export type ScheduleRunStarted = z.infer<typeof scheduleRunStarted>;
