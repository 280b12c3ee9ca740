import { sql } from "drizzle-orm";
import { check, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

export const CONNECTION_PROVIDERS = ["google", "plausible"] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];
/** `revoked`: the provider refused the stored grant or key; the dashboard offers "reconnect", nothing retries. */
export const CONNECTION_STATUSES = ["active", "revoked"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/** What a connection remembers besides its secret: GA4 properties per domain, a self-hosted base URL. */
export interface ConnectionSettings {
  /** Google: the GA4 property ("properties/123456789") that measures each registered domain. */
  ga4Properties?: Record<string, string>;
  /** Plausible: the API's origin (https://plausible.io, or a self-hosted instance). */
  baseUrl?: string;
}

/**
 * An account's link to a customer's own data at a provider: the Google OAuth grant (Search Console and GA4)
 * or a Plausible API key. The secret (tokens or key, JSON) is sealed with AES-256-GCM under
 * DATA_ENCRYPTION_KEY and bound to the account and provider; it never leaves the server.
 */
export const connections = pgTable(
  "connections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: CONNECTION_PROVIDERS }).notNull(),
    status: text("status", { enum: CONNECTION_STATUSES }).notNull().default("active"),
    sealedSecret: text("sealed_secret").notNull(),
    /** For people: the Google account's email, the Plausible instance. */
    label: text("label"),
    settings: jsonb("settings").$type<ConnectionSettings>().notNull().default({}),
    /** Why the connection stopped working, in the provider's words (shown beside "reconnect"). */
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("connections_account_provider_idx").on(t.accountId, t.provider),
    check("connections_provider_valid", sql`${t.provider} in (${quoted(CONNECTION_PROVIDERS)})`),
    check("connections_status_valid", sql`${t.status} in (${quoted(CONNECTION_STATUSES)})`),
  ],
);

export type Connection = typeof connections.$inferSelect;
