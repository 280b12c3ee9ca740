import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import * as schema from "./schema";

export type Schema = typeof schema;
/** Either driver: PGlite (embedded) or postgres.js. Services take this as their first argument. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A function that works inside or outside a transaction. */
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  driver: "pglite" | "postgres";
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

export function pgliteDataDir(): string {
  return process.env.PGLITE_DATA_DIR ?? path.join(process.cwd(), ".data", "pglite");
}

/** Opens the database the environment names: DATABASE_URL selects Postgres, else PGlite. */
export async function openDatabase(opts: { url?: string; dataDir?: string } = {}): Promise<DbHandle> {
  const url = opts.url ?? process.env.DATABASE_URL;
  if (url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(url, {
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      onnotice: () => {},
      // Our SQL is small and repeated; prepared statements pay off.
      prepare: true,
    });
    const db = drizzle(client, { schema }) as unknown as Db;
    return { db, driver: "postgres", close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dataDir = opts.dataDir ?? pgliteDataDir();
  if (!dataDir.startsWith("memory://")) {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dataDir, { recursive: true });
  }
  const client = await PGlite.create(dataDir);
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, driver: "pglite", close: () => client.close() };
}

export async function migrateDatabase(handle: DbHandle): Promise<void> {
  if (handle.driver === "postgres") {
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants its own driver's type
    await migrate(handle.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
  } else {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    // biome-ignore lint/suspicious/noExplicitAny: as above
    await migrate(handle.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
  }
}

// The process-wide handle lives on globalThis: Next may load this module in several bundles,
// and two PGlite instances on one data folder would corrupt it.
const state = globalThis as unknown as { __appDb?: Promise<DbHandle> };

/** The process's database, opened and migrated on first use. */
export function getDbHandle(): Promise<DbHandle> {
  if (!state.__appDb) {
    state.__appDb = (async () => {
      const handle = await openDatabase();
      await migrateDatabase(handle);
      return handle;
    })();
    state.__appDb.catch(() => {
      state.__appDb = undefined;
    });
  }
  return state.__appDb;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Tests and scripts install their own handle (a cloned test database). */
export function setDbHandle(handle: DbHandle | undefined): void {
  state.__appDb = handle ? Promise.resolve(handle) : undefined;
}
