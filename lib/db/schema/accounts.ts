import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const ROLES = ["owner", "admin", "member"] as const;
export type Role = (typeof ROLES)[number];

/** The billing unit: credits, keys, domains and jobs belong to an account. */
export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    creditBalance: integer("credit_balance").notNull().default(0),
    totalUsed: integer("total_used").notNull().default(0),
    isDemo: boolean("is_demo").notNull().default(false),
    /** `credits.low` fires when a charge takes the balance from at least this to under it. */
    creditsLowThreshold: integer("credits_low_threshold").notNull().default(20),
    /** The sign-up bonus waits for the owner's address to be verified; cleared in the grant's transaction. */
    signupBonusPending: boolean("signup_bonus_pending").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("accounts_balance_non_negative", sql`${t.creditBalance} >= 0`),
    check("accounts_total_used_non_negative", sql`${t.totalUsed} >= 0`),
  ],
);

/** People. Text ids so next-auth's adapter tables can reference them. */
export const users = pgTable(
  "users",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash"),
    emailVerified: timestamp("email_verified", { withTimezone: true, mode: "date" }),
    image: text("image"),
    /** Embedded in every session token; bumping it (sign-out, password change) ends every session. */
    sessionVersion: integer("session_version").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`)],
);

export const memberships = pgTable(
  "memberships",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.userId] }),
    index("memberships_user_idx").on(t.userId),
    check("memberships_role_valid", sql`${t.role} in ('owner', 'admin', 'member')`),
  ],
);

/**
 * API key pairs. `keyId` is public (sent as x-api-key); the secret is stored only as a SHA-256 hash.
 * At most one active (unrevoked) pair per account.
 */
export const KEY_NAME_MAX = 60;

/**
 * An account's API key pairs, each named ("Default", "tracking snippet", "CI"). A pair is active (neither
 * revoked nor expiring), rolling (replaced by a newer pair and still accepted until `expires_at`), or over
 * (revoked, or past `expires_at`). At most one active pair per account and name.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    keyId: text("key_id").notNull(),
    secretHash: text("secret_hash").notNull(),
    name: text("name").notNull().default("Default"),
    /** Overrides the default 60 requests per minute. */
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    createdByUserId: text("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** Set by a roll with a window: the pair keeps working until then. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** The pair a roll replaced this one with. */
    replacedById: uuid("replaced_by_id"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_keys_key_id_unique").on(t.keyId),
    uniqueIndex("api_keys_active_name_unique")
      .on(t.accountId, t.name)
      .where(sql`${t.revokedAt} is null and ${t.expiresAt} is null`),
    index("api_keys_account_idx").on(t.accountId, t.createdAt),
    check(
      "api_keys_rate_limit_positive",
      sql`${t.rateLimitPerMinute} is null or ${t.rateLimitPerMinute} > 0`,
    ),
    check("api_keys_name_length", sql`char_length(${t.name}) between 1 and 60`),
  ],
);

/**
 * One row: a counter that a trigger on api_keys bumps (and announces with NOTIFY api_keys_changed) whenever a
 * key is revoked, deleted or its secret or limit changes, in the same transaction. Every server's key cache
 * (lib/keys/key-cache.ts) empties itself when the counter moves, so a revoked key is refused everywhere within
 * seconds even if a notification is lost.
 */
export const apiKeyEpoch = pgTable("api_key_epoch", {
  id: integer("id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

/** Domains registered on an account; data endpoints only serve registered domains. */
export const domains = pgTable(
  "domains",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    hostname: text("hostname").notNull(),
    verificationToken: text("verification_token").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    verificationMethod: text("verification_method"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("domains_account_hostname_unique").on(t.accountId, t.hostname)],
);

export type Account = typeof accounts.$inferSelect;
export type NewAccount = typeof accounts.$inferInsert;
export type User = typeof users.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type Domain = typeof domains.$inferSelect;
