import { sql } from "drizzle-orm";
import {
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
import { accounts, ROLES, users } from "./accounts";

// next-auth's adapter tables (OAuth links, database sessions, email tokens). Our `accounts` table is the
// billing account, so next-auth's "accounts" are stored as auth_accounts.
export const authAccounts = pgTable(
  "auth_accounts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })],
);

export const authSessions = pgTable("auth_sessions", {
  sessionToken: text("session_token").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expires: timestamp("expires", { withTimezone: true, mode: "date" }).notNull(),
});

export const authVerificationTokens = pgTable(
  "auth_verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/** An invitation to join an account; the link carries a token whose SHA-256 is stored here. */
export const invites = pgTable(
  "invites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email"),
    role: text("role", { enum: ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    createdByUserId: text("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedByUserId: text("accepted_by_user_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("invites_token_hash_unique").on(t.tokenHash)],
);

export type Invite = typeof invites.$inferSelect;

export const EMAIL_TOKEN_PURPOSES = ["verify_email", "reset_password"] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/** A link sent by email (address verification, password reset): only its SHA-256 is stored; used once. */
export const emailTokens = pgTable(
  "email_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: EMAIL_TOKEN_PURPOSES }).notNull(),
    /** The address the link was sent to (a verification proves this one). */
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("email_tokens_token_hash_unique").on(t.tokenHash),
    index("email_tokens_user_idx").on(t.userId, t.purpose),
    check("email_tokens_purpose_valid", sql`${t.purpose} in ('verify_email', 'reset_password')`),
  ],
);

export type EmailToken = typeof emailTokens.$inferSelect;

/**
 * OAuth `state` values whose callback has been received (their SHA-256): a callback is processed once, and a
 * replayed one is refused. Rows older than the state cookie's life are purged as new ones arrive.
 */
export const oauthStatesUsed = pgTable(
  "oauth_states_used",
  {
    stateHash: text("state_hash").primaryKey(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth_states_used_used_at_idx").on(t.usedAt)],
);

/**
 * A sign-up waiting for its emailed link: the account is created only when the link is opened, so an address
 * proves it is the visitor's before it gets a user. The link's token is stored as its SHA-256; the password as
 * its bcrypt hash. `usedAt`/`userId` record the link that created the user.
 */
export const signUpRequests = pgTable(
  "sign_up_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash").notNull(),
    /** Where the new user lands (a same-origin path, checked again when used). */
    nextPath: text("next_path"),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("sign_up_requests_token_hash_unique").on(t.tokenHash),
    index("sign_up_requests_email_idx").on(sql`lower(${t.email})`, t.createdAt),
    index("sign_up_requests_expires_at_idx").on(t.expiresAt),
  ],
);

export type SignUpRequest = typeof signUpRequests.$inferSelect;
