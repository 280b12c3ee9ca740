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
import { accounts, apiKeys, users } from "./accounts";

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * A customer's webhook endpoint. The signing secret (`whsec_…`) must be readable to sign, so it is stored as
 * it is; the API shows it once. After a rotation the previous secret keeps signing beside the new one until
 * `previousSecretExpiresAt` (24 h).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Names from WEBHOOK_EVENTS (lib/webhooks/events.ts, the one list), checked by the API before storing. */
    events: text("events").array().notNull(),
    description: text("description"),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    enabled: boolean("enabled").notNull().default(true),
    /** When deliveries started failing without a success since; five days of it disables the endpoint. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_account_idx").on(t.accountId)],
);

/** One event (the Standard Webhooks message): written in the transaction of what it reports. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    /** The `webhook-id` header: `msg_…`, the same on every retry. */
    id: text("id").primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** The body sent: `{type, timestamp, data}`. */
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_events_account_idx").on(t.accountId, t.createdAt.desc())],
);

/** The outbox: one row per event and endpoint, sent by the job runner's pass until it succeeds or fails. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    /** Attempts made so far. */
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due (pending); while an attempt runs, the end of its lease. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // An endpoint's delivery log, newest first (created_at desc, id desc), read by scanning this index backward
    // (migration 0023: it was (endpoint_id, created_at desc nulls last), which that order cannot use, so each page
    // of the log sorted all of the endpoint's deliveries).
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.id),
    check("webhook_deliveries_status_valid", sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

/** Something the account owner must know (an endpoint disabled), shown on the dashboard until dismissed. */
export const accountNotices = pgTable(
  "account_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    dismissedAt: timestamp("dismissed_at", { withTimezone: true }),
  },
  (t) => [index("account_notices_open_idx").on(t.accountId).where(sql`${t.dismissedAt} is null`)],
);

/**
 * Bearer tokens of the older interface. The token is `lt_<id>_<secret>`; only the SHA-256 of the whole token
 * is stored. A token counts against the rate limit of the key pair it was made beside (the account's key).
 */
export const legacyTokens = pgTable(
  "legacy_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The public part of the token (`lt_<tokenId>_…`), shown in lists. */
    tokenId: text("token_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    name: text("name").notNull(),
    apiKeyId: uuid("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    createdByUserId: text("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("legacy_tokens_token_id_unique").on(t.tokenId),
    index("legacy_tokens_account_idx").on(t.accountId),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type LegacyToken = typeof legacyTokens.$inferSelect;
