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

export const MONITOR_STATUSES = ["active", "paused"] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];
export const MONITOR_PAUSE_REASONS = ["paused_by_user", "domain_removed"] as const;
export type MonitorPauseReason = (typeof MONITOR_PAUSE_REASONS)[number];
export const MONITOR_EVERY = ["day", "week"] as const;
export const MONITOR_RUN_STATUSES = ["running", "completed", "failed", "skipped"] as const;
export type MonitorRunStatus = (typeof MONITOR_RUN_STATUSES)[number];
export const MONITOR_SKIP_REASONS = ["insufficient_credits", "monthly_cap"] as const;
export type MonitorSkipReason = (typeof MONITOR_SKIP_REASONS)[number];
export const MONITOR_ANSWER_STATUSES = ["pending", "running", "succeeded", "failed"] as const;

/** What a run asked: the monitor's settings when the run was created (a later edit does not change it). */
export interface MonitorRunConfig {
  domain: string;
  prompts: string[];
  engines: string[];
  samples: number;
  competitors: string[];
  brandNames: string[];
}

/** A monitor: tracked prompts asked of engines on a daily or weekly schedule (drizzle/0024_monitors.sql). */
export const monitors = pgTable(
  "monitors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Null once the domain was removed from the account (a trigger pauses the monitor). */
    domainId: uuid("domain_id").references(() => domains.id, { onDelete: "set null" }),
    domain: text("domain").notNull(),
    name: text("name"),
    prompts: jsonb("prompts").$type<string[]>().notNull(),
    competitors: text("competitors").array().notNull().default(sql`'{}'`),
    brandNames: text("brand_names").array().notNull().default(sql`'{}'`),
    engines: text("engines").array().notNull(),
    samples: integer("samples").notNull().default(3),
    every: text("every", { enum: MONITOR_EVERY }).notNull(),
    hour: integer("hour").notNull(),
    weekday: integer("weekday"),
    timeZone: text("time_zone").notNull(),
    monthlyCreditCap: integer("monthly_credit_cap"),
    status: text("status", { enum: MONITOR_STATUSES }).notNull().default("active"),
    pauseReason: text("pause_reason", { enum: MONITOR_PAUSE_REASONS }),
    nextRunAt: timestamp("next_run_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("monitors_account_idx").on(t.accountId, t.createdAt, t.id),
    index("monitors_due_idx").on(t.nextRunAt).where(sql`${t.status} = 'active'`),
    index("monitors_domain_idx").on(t.domainId),
    check("monitors_status_valid", sql`${t.status} in ('active', 'paused')`),
    check("monitors_samples_range", sql`${t.samples} between 1 and 10`),
    check("monitors_hour_range", sql`${t.hour} between 0 and 23`),
    check("monitors_cap_positive", sql`${t.monthlyCreditCap} is null or ${t.monthlyCreditCap} > 0`),
    check("monitors_paused_has_reason", sql`(${t.status} = 'paused') = (${t.pauseReason} is not null)`),
  ],
);

/** One run of a monitor: charged at creation, or skipped with its reason. Kept 13 months. */
export const monitorRuns = pgTable(
  "monitor_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    trigger: text("trigger", { enum: ["schedule", "manual"] }).notNull(),
    /** The schedule slot a scheduled run stands for: unique per monitor, so a slot never runs twice. */
    scheduledFor: timestamp("scheduled_for", { withTimezone: true }),
    status: text("status", { enum: MONITOR_RUN_STATUSES }).notNull(),
    skipReason: text("skip_reason", { enum: MONITOR_SKIP_REASONS }),
    skipDetail: jsonb("skip_detail").$type<Record<string, unknown>>(),
    config: jsonb("config").$type<MonitorRunConfig>().notNull(),
    answersPlanned: integer("answers_planned").notNull(),
    creditsCharged: integer("credits_charged").notNull().default(0),
    creditsRefunded: integer("credits_refunded").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '13 months'`),
    /** A manual run's Idempotency-Key: the same key on the same monitor answers the original run. */
    idempotencyKey: text("idempotency_key"),
    /** The process judging the tone of the run's answers, until when (drizzle/0035_monitor_batch_judge.sql). */
    judgeLeaseOwner: text("judge_lease_owner"),
    judgeLeaseExpiresAt: timestamp("judge_lease_expires_at", { withTimezone: true }),
    /** Times the run's judgement was taken up; past the answers' attempts the lexicon judges what is left. */
    judgeAttempts: integer("judge_attempts").notNull().default(0),
    /** The sentiment judge's model calls for this run (engine, model, tokens, answers judged): operators only. */
    judgeUsage: jsonb("judge_usage").$type<MonitorJudgeUsage[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [
    uniqueIndex("monitor_runs_idempotency_unique")
      .on(t.monitorId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    uniqueIndex("monitor_runs_slot_unique")
      .on(t.monitorId, t.scheduledFor)
      .where(sql`${t.scheduledFor} is not null`),
    index("monitor_runs_monitor_idx").on(t.monitorId, t.createdAt, t.id),
    index("monitor_runs_running_idx").on(t.createdAt).where(sql`${t.status} = 'running'`),
    index("monitor_runs_expires_idx").on(t.expiresAt),
    check("monitor_runs_skipped_uncharged", sql`${t.status} <> 'skipped' or ${t.creditsCharged} = 0`),
    check(
      "monitor_runs_credits",
      sql`${t.creditsCharged} >= 0 and ${t.creditsRefunded} >= 0 and ${t.creditsRefunded} <= ${t.creditsCharged}`,
    ),
  ],
);

export interface MonitorCompetitorMention {
  domain: string;
  mentioned: boolean;
  position: number;
  cited: boolean;
}

/** The sentences of an answer that name the brand, kept for the run's sentiment judge. */
export interface MonitorJudgeInput {
  brand: string;
  sentences: string[];
}

/** One model call of a run's sentiment judge. */
export interface MonitorJudgeUsage {
  engine: string;
  purpose: "sentiment";
  model: string;
  inputTokens: number;
  outputTokens: number;
  attempts: number;
  /** Answers the call judged. */
  answers: number;
}

/** One engine answering one prompt once (one sample) within a run. */
export const monitorAnswers = pgTable(
  "monitor_answers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => monitorRuns.id, { onDelete: "cascade" }),
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    engine: text("engine").notNull(),
    promptIndex: integer("prompt_index").notNull(),
    prompt: text("prompt").notNull(),
    sample: integer("sample").notNull(),
    status: text("status", { enum: MONITOR_ANSWER_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Not asked before this time (a provider's Retry-After, a retry's backoff). */
    notBefore: timestamp("not_before", { withTimezone: true }),
    /** The provider request slot this answer was given (requests per minute shared through provider_budgets). */
    slotAt: timestamp("slot_at", { withTimezone: true }),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    mentioned: boolean("mentioned"),
    position: integer("position"),
    sentiment: text("sentiment", { enum: ["positive", "neutral", "negative"] }),
    sentimentMethod: text("sentiment_method"),
    cited: text("cited").array(),
    retrieved: text("retrieved").array(),
    queries: text("queries").array(),
    citedDomains: text("cited_domains").array(),
    ownCited: boolean("own_cited"),
    competitors: jsonb("competitors").$type<MonitorCompetitorMention[]>(),
    answer: text("answer"),
    model: text("model"),
    error: jsonb("error").$type<{ code: string; message: string }>(),
    /** Provider token usage, for operators only. */
    usage: jsonb("usage"),
    /** What the run's sentiment judge still has to label (a mentioned answer until its run is judged). */
    judgeInput: jsonb("judge_input").$type<MonitorJudgeInput>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("monitor_answers_unique").on(t.runId, t.engine, t.promptIndex, t.sample),
    index("monitor_answers_pending_idx").on(t.engine, t.createdAt).where(sql`${t.status} = 'pending'`),
    index("monitor_answers_running_idx").on(t.engine, t.leaseExpiresAt).where(sql`${t.status} = 'running'`),
    index("monitor_answers_monitor_idx").on(t.monitorId, t.createdAt),
    index("monitor_answers_judge_idx").on(t.runId).where(sql`${t.judgeInput} is not null`),
    check("monitor_answers_error_when_failed", sql`(${t.status} = 'failed') = (${t.error} is not null)`),
  ],
);

/** Each AI provider's shared request clock: the next free request slot, and a Retry-After block. */
export const providerBudgets = pgTable("provider_budgets", {
  engine: text("engine").primaryKey(),
  nextSlotAt: timestamp("next_slot_at", { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

export type Monitor = typeof monitors.$inferSelect;
export type NewMonitor = typeof monitors.$inferInsert;
export type MonitorRun = typeof monitorRuns.$inferSelect;
export type MonitorAnswer = typeof monitorAnswers.$inferSelect;
