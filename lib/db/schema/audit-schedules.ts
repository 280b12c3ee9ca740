import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { accounts, domains } from "./accounts";
import { jobs } from "./jobs";

export const AUDIT_SCHEDULE_TOOLS = ["audits", "seo-aeo-geo-audit", "core-web-vitals", "ai-access"] as const;
export type AuditScheduleTool = (typeof AUDIT_SCHEDULE_TOOLS)[number];
export const AUDIT_SCHEDULE_STATUSES = ["active", "paused"] as const;
export const AUDIT_SCHEDULE_PAUSE_REASONS = ["paused_by_user", "domain_removed"] as const;
export const AUDIT_RUN_STATUSES = ["running", "completed", "failed", "skipped"] as const;
export type AuditRunStatus = (typeof AUDIT_RUN_STATUSES)[number];
export const AUDIT_SKIP_REASONS = ["insufficient_credits", "monthly_cap"] as const;
export type AuditSkipReason = (typeof AUDIT_SKIP_REASONS)[number];

/** A scheduled audit: one tool on one URL of a registered domain, daily or weekly (drizzle/0032_audit_schedules.sql). */
export const auditSchedules = pgTable(
  "audit_schedules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Null once the domain was removed from the account (a trigger pauses the schedule). */
    domainId: uuid("domain_id").references(() => domains.id, { onDelete: "set null" }),
    domain: text("domain").notNull(),
    tool: text("tool", { enum: AUDIT_SCHEDULE_TOOLS }).notNull(),
    url: text("url").notNull(),
    /** The tool's validated input, handed to every run's job. */
    input: jsonb("input").notNull(),
    every: text("every", { enum: ["day", "week"] }).notNull(),
    hour: integer("hour").notNull(),
    weekday: integer("weekday"),
    timeZone: text("time_zone").notNull(),
    monthlyCreditCap: integer("monthly_credit_cap"),
    status: text("status", { enum: AUDIT_SCHEDULE_STATUSES }).notNull().default("active"),
    pauseReason: text("pause_reason", { enum: AUDIT_SCHEDULE_PAUSE_REASONS }),
    nextRunAt: timestamp("next_run_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_schedules_account_idx").on(t.accountId, t.createdAt, t.id),
    index("audit_schedules_due_idx").on(t.nextRunAt).where(sql`${t.status} = 'active'`),
    index("audit_schedules_domain_idx").on(t.domainId),
    check("audit_schedules_status_valid", sql`${t.status} in ('active', 'paused')`),
    check("audit_schedules_hour_range", sql`${t.hour} between 0 and 23`),
    check("audit_schedules_cap_positive", sql`${t.monthlyCreditCap} is null or ${t.monthlyCreditCap} > 0`),
  ],
);
export type AuditSchedule = typeof auditSchedules.$inferSelect;

/** One run of a scheduled audit: its job, its snapshot and what changed since the run before. Kept 13 months. */
export const auditScheduleRuns = pgTable(
  "audit_schedule_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    scheduleId: uuid("schedule_id")
      .notNull()
      .references(() => auditSchedules.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    tool: text("tool", { enum: AUDIT_SCHEDULE_TOOLS }).notNull(),
    url: text("url").notNull(),
    trigger: text("trigger", { enum: ["schedule", "manual"] }).notNull(),
    /** The schedule slot a scheduled run stands for: unique per schedule, so a slot never runs twice. */
    scheduledFor: timestamp("scheduled_for", { withTimezone: true }),
    status: text("status", { enum: AUDIT_RUN_STATUSES }).notNull(),
    skipReason: text("skip_reason", { enum: AUDIT_SKIP_REASONS }),
    skipDetail: jsonb("skip_detail").$type<Record<string, unknown>>(),
    /** The tool's job (null once the job is purged after its 7 days; the run keeps what it needs). */
    jobId: uuid("job_id").references(() => jobs.id, { onDelete: "set null" }),
    creditsCharged: integer("credits_charged").notNull().default(0),
    creditsRefunded: integer("credits_refunded").notNull().default(0),
    scores: jsonb("scores").$type<Record<string, number>>(),
    vitals: jsonb("vitals"),
    snapshot: jsonb("snapshot"),
    changes: jsonb("changes"),
    regressed: boolean("regressed"),
    error: jsonb("error").$type<{ code: string; message: string }>(),
    idempotencyKey: text("idempotency_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '13 months'`),
  },
  (t) => [
    uniqueIndex("audit_schedule_runs_slot_unique")
      .on(t.scheduleId, t.scheduledFor)
      .where(sql`${t.scheduledFor} is not null`),
    uniqueIndex("audit_schedule_runs_idempotency_unique")
      .on(t.scheduleId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    uniqueIndex("audit_schedule_runs_job_unique").on(t.jobId).where(sql`${t.jobId} is not null`),
    index("audit_schedule_runs_schedule_idx").on(t.scheduleId, t.createdAt, t.id),
    index("audit_schedule_runs_running_idx").on(t.createdAt).where(sql`${t.status} = 'running'`),
    index("audit_schedule_runs_expires_idx").on(t.expiresAt),
    check("audit_schedule_runs_skipped_uncharged", sql`${t.status} <> 'skipped' or ${t.creditsCharged} = 0`),
    check(
      "audit_schedule_runs_credits",
      sql`${t.creditsCharged} >= 0 and ${t.creditsRefunded} >= 0 and ${t.creditsRefunded} <= ${t.creditsCharged}`,
    ),
  ],
);
export type AuditScheduleRun = typeof auditScheduleRuns.$inferSelect;
