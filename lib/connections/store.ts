import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import {
  type Connection,
  type ConnectionProvider,
  type ConnectionSettings,
  connections,
} from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Env } from "@/lib/providers/env";
import {
  DATA_ENCRYPTION_ENV,
  DataKeyError,
  decryptSecret,
  encryptSecret,
  readDataKey,
} from "@/lib/secrets/data-encryption";

export type { Env };

/** Where a customer fixes a connection; errors name it. */
export const CONNECTIONS_PAGE = "/dashboard/connections";

const context = (accountId: string, provider: ConnectionProvider) => `connection:${accountId}:${provider}`;

/** The data key, or a 400 telling the operator to set it: secrets are never stored in the clear. */
export function requireDataKey(env: Env): Buffer {
  try {
    const key = readDataKey(env);
    if (key) return key;
  } catch (err) {
    if (err instanceof DataKeyError) {
      throw new AppError("VALIDATION_ERROR", err.message, { reason: "data_encryption_key_invalid" });
    }
    throw err;
  }
  throw new AppError(
    "VALIDATION_ERROR",
    `Connections are not available on this server: set ${DATA_ENCRYPTION_ENV} (32 random bytes, e.g. openssl rand -base64 32) to store their credentials encrypted.`,
    { reason: "data_encryption_key_missing", configure: [DATA_ENCRYPTION_ENV] },
  );
}

export async function findConnection(
  db: DbOrTx,
  accountId: string,
  provider: ConnectionProvider,
): Promise<Connection | null> {
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.accountId, accountId), eq(connections.provider, provider)));
  return row ?? null;
}

export function openSecret<T>(env: Env, row: Connection): T {
  const key = requireDataKey(env);
  try {
    return JSON.parse(decryptSecret(key, row.sealedSecret, context(row.accountId, row.provider))) as T;
  } catch (err) {
    if (err instanceof DataKeyError) {
      throw new AppError(
        "VALIDATION_ERROR",
        `The stored ${row.provider} credentials cannot be read with this server's ${DATA_ENCRYPTION_ENV}; reconnect on ${CONNECTIONS_PAGE}.`,
        { reason: "reconnect_required", provider: row.provider, connectUrl: CONNECTIONS_PAGE },
      );
    }
    throw err;
  }
}

/** Creates or replaces the account's connection to `provider` (a reconnect makes it active again). */
export async function saveConnection(
  db: DbOrTx,
  env: Env,
  c: {
    accountId: string;
    provider: ConnectionProvider;
    secret: unknown;
    label: string | null;
    settings?: ConnectionSettings;
  },
): Promise<void> {
  const sealedSecret = encryptSecret(
    requireDataKey(env),
    JSON.stringify(c.secret),
    context(c.accountId, c.provider),
  );
  await db
    .insert(connections)
    .values({
      accountId: c.accountId,
      provider: c.provider,
      sealedSecret,
      label: c.label,
      settings: c.settings ?? {},
      status: "active",
    })
    .onConflictDoUpdate({
      target: [connections.accountId, connections.provider],
      set: {
        sealedSecret,
        label: c.label,
        status: "active",
        lastError: null,
        updatedAt: sql`now()`,
        // A reconnect keeps the GA4 properties chosen before; a new Plausible instance replaces its settings.
        ...(c.settings ? { settings: c.settings } : {}),
      },
    });
}

/** New tokens after a refresh, sealed again. */
export async function updateSecret(db: DbOrTx, env: Env, row: Connection, secret: unknown): Promise<void> {
  const sealedSecret = encryptSecret(
    requireDataKey(env),
    JSON.stringify(secret),
    context(row.accountId, row.provider),
  );
  await db.update(connections).set({ sealedSecret, updatedAt: sql`now()` }).where(eq(connections.id, row.id));
}

/** The provider refused the grant: stop using it until the customer reconnects (no retry loop). */
export async function markRevoked(db: DbOrTx, row: Connection, reason: string): Promise<void> {
  await db
    .update(connections)
    .set({ status: "revoked", lastError: reason.slice(0, 500), updatedAt: sql`now()` })
    .where(eq(connections.id, row.id));
}

export async function updateSettings(
  db: DbOrTx,
  row: Connection,
  settings: ConnectionSettings,
): Promise<void> {
  await db.update(connections).set({ settings, updatedAt: sql`now()` }).where(eq(connections.id, row.id));
}

export async function deleteConnection(
  db: DbOrTx,
  accountId: string,
  provider: ConnectionProvider,
): Promise<boolean> {
  const rows = await db
    .delete(connections)
    .where(and(eq(connections.accountId, accountId), eq(connections.provider, provider)))
    .returning({ id: connections.id });
  return rows.length > 0;
}

/** The 400 of a revoked connection: the customer reconnects; the service does not call the provider again. */
export function reconnectRequired(provider: ConnectionProvider, lastError: string | null): AppError {
  const name = provider === "google" ? "Google" : "Plausible";
  return new AppError(
    "VALIDATION_ERROR",
    `The ${name} connection no longer works${lastError ? ` (${lastError})` : ""}: reconnect it on ${CONNECTIONS_PAGE}.`,
    { reason: "reconnect_required", provider, connectUrl: CONNECTIONS_PAGE },
  );
}

export function notConnected(provider: ConnectionProvider, what: string): AppError {
  const name = provider === "google" ? "Google" : "Plausible";
  return new AppError(
    "VALIDATION_ERROR",
    `${what} needs a ${name} connection, and this account has none: connect ${name} on ${CONNECTIONS_PAGE}.`,
    { reason: "not_connected", provider, connectUrl: CONNECTIONS_PAGE },
  );
}
