import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { ENGINE_NAMES } from "../../providers/engine-types";
import { accounts } from "./accounts";
import { jobs } from "./jobs";

export const OBSERVED_SENTIMENTS = ["positive", "neutral", "negative"] as const;

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/**
 * One engine's answer about a domain, kept 13 months (derived data, unlike the job's 7-day result): the series
 * behind GET /visibility. The job link is cleared when the job itself is purged.
 */
export const visibilityObservations = pgTable(
  "visibility_observations",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    jobId: uuid("job_id").references(() => jobs.id, { onDelete: "set null" }),
    domain: text("domain").notNull(),
    engine: text("engine", { enum: ENGINE_NAMES }).notNull(),
    prompt: text("prompt").notNull(),
    cited: boolean("cited").notNull(),
    mentioned: boolean("mentioned").notNull(),
    /** mentionPosition: 0 when not mentioned. */
    position: integer("position").notNull(),
    sentiment: text("sentiment", { enum: OBSERVED_SENTIMENTS }).notNull(),
    observedAt: timestamp("observed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("visibility_observations_account_domain_idx").on(t.accountId, t.domain, t.observedAt),
    index("visibility_observations_observed_idx").on(t.observedAt),
    check("visibility_observations_engine_valid", sql`${t.engine} in (${quoted(ENGINE_NAMES)})`),
    check("visibility_observations_sentiment_valid", sql`${t.sentiment} in (${quoted(OBSERVED_SENTIMENTS)})`),
    check("visibility_observations_position_valid", sql`${t.position} >= 0`),
    check(
      "visibility_observations_mention_position",
      sql`(${t.mentioned} and ${t.position} > 0) or (not ${t.mentioned} and ${t.position} = 0)`,
    ),
  ],
);

export type VisibilityObservation = typeof visibilityObservations.$inferSelect;
export type NewVisibilityObservation = typeof visibilityObservations.$inferInsert;
