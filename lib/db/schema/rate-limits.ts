import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per limited bucket (an API key or a client IP). The window starts at the bucket's
 * first request and lasts 60 s, so "the 61st request within a minute" is exact on every instance.
 */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  bucket: text("bucket").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});
