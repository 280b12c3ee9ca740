import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

export const JOB_STATUSES = ["pending", "processing", "completed", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobError {
  code: string;
  message: string;
}

export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("pending"),
    input: jsonb("input").notNull(),
    result: jsonb("result"),
    error: jsonb("error").$type<JobError>(),
    creditsCharged: integer("credits_charged").notNull(),
    creditsRefunded: boolean("credits_refunded").notNull().default(false),
    /**
     * Credits given back: all of them for a failed job; for a completed job, the share of the parts that
     * failed (an AI engine that did not answer). The ledger's unique (job, refund) row guards it.
     */
    creditsRefundedAmount: integer("credits_refunded_amount").notNull().default(0),
    /** Provider token usage, for operators only (the admin CLI); never in a customer's view. */
    providerUsage: jsonb("provider_usage"),
    attempts: integer("attempts").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '7 days'`),
  },
  (t) => [
    index("jobs_account_created_idx").on(t.accountId, t.createdAt, t.id),
    index("jobs_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    index("jobs_processing_lease_idx").on(t.leaseExpiresAt).where(sql`${t.status} = 'processing'`),
    index("jobs_pending_account_idx").on(t.accountId, t.createdAt, t.id).where(sql`${t.status} = 'pending'`),
    index("jobs_processing_account_idx").on(t.accountId).where(sql`${t.status} = 'processing'`),
    index("jobs_expires_idx").on(t.expiresAt),
    check("jobs_status_valid", sql`${t.status} in ('pending', 'processing', 'completed', 'failed')`),
    check("jobs_credits_non_negative", sql`${t.creditsCharged} >= 0`),
    check("jobs_result_only_when_completed", sql`${t.result} is null or ${t.status} = 'completed'`),
    check(
      "jobs_refunded_amount_bounds",
      sql`${t.creditsRefundedAmount} >= 0 and ${t.creditsRefundedAmount} <= ${t.creditsCharged}`,
    ),
    check("jobs_refund_only_when_failed", sql`not ${t.creditsRefunded} or ${t.status} = 'failed'`),
  ],
);

/** A replayed POST with the same Idempotency-Key returns the original answer. */
export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** Method, path and a hash of the body: a different request under the same key is refused. */
    requestHash: text("request_hash").notNull(),
    jobId: uuid("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

export type Job = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
