import path from "node:path";
import * as schema from "./schema";
import type { Db, DbHandle, OpenOptions } from "./types";

export type { Db, DbHandle, DbOrTx, OpenOptions, Tx } from "./types";

const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

export function pgliteDataDir(): string {
  return process.env.PGLITE_DATA_DIR ?? path.join(process.cwd(), ".data", "pglite");
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/**
 * postgres.js settings for a database that can vanish: connecting gives up after a few seconds, a
 * statement is bounded by the server, and idle or old connections are replaced, so a dead database
 * fails requests fast and the pool reconnects on its own when it returns.
 */
function postgresOptions() {
  const statementTimeout = envNumber("DATABASE_STATEMENT_TIMEOUT_MS", 30_000);
  return {
    max: envNumber("DATABASE_POOL_SIZE", 10) || 10,
    onnotice: () => {},
    // Our SQL is small and repeated; prepared statements pay off.
    prepare: true,
    connect_timeout: envNumber("DATABASE_CONNECT_TIMEOUT_SECONDS", 3) || 3,
    idle_timeout: envNumber("DATABASE_IDLE_TIMEOUT_SECONDS", 60),
    max_lifetime: envNumber("DATABASE_MAX_LIFETIME_SECONDS", 30 * 60),
    // postgres.js waits up to 20 s between reconnect attempts by default, and queries queue behind
    // that wait: retry within a second so that requests fail (or succeed) promptly.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    connection: {
      statement_timeout: statementTimeout,
      // A transaction left open by a stalled client must not hold row locks for ever.
      idle_in_transaction_session_timeout: envNumber("DATABASE_IDLE_IN_TRANSACTION_MS", 60_000),
    },
  };
}

/** Statements with at most this many parameters (and this long) are prepared once per connection. */
const PREPARE_MAX_PARAMS = 32;
const PREPARE_MAX_LENGTH = 4000;
/**
 * A statement that starts with this comment is prepared whatever its length: one long statement whose text
 * never changes (its rows travel as array parameters), run often enough that parsing and planning it each
 * time shows in a profile (tracking ingest).
 */
export const PREPARED_STATEMENT = "/* prepared */";

type PgSql = import("postgres").Sql;

/**
 * Drizzle sends every query unprepared unless it is given a name, and postgres.js then asks the server to
 * describe an unprepared statement with parameters before binding it: two round trips per query. This wrapper
 * prepares the statements our code repeats (a bounded set of shapes: few parameters, short text) on each
 * connection, so each is one round trip after its first use; long multi-row statements stay unprepared, so
 * their many shapes do not pile up on the server. Transactions and savepoints get the same wrapper.
 */
export function preparingClient<T extends PgSql>(client: T): T {
  const shouldPrepare = (query: string, args: unknown) =>
    Array.isArray(args) &&
    args.length > 0 &&
    args.length <= PREPARE_MAX_PARAMS &&
    (query.length <= PREPARE_MAX_LENGTH || query.startsWith(PREPARED_STATEMENT));
  const wrapCallback = (fn: unknown) =>
    typeof fn === "function" ? (tx: PgSql) => (fn as (tx: PgSql) => unknown)(preparingClient(tx)) : fn;
  return new Proxy(client, {
    get(target, prop) {
      if (prop === "unsafe") {
        return (query: string, args?: unknown, options?: Record<string, unknown>) =>
          shouldPrepare(query, args)
            ? target.unsafe(query, args as never[], { ...options, prepare: true })
            : target.unsafe(query, args as never[], options as never);
      }
      if (prop === "begin" || prop === "savepoint") {
        return (...args: unknown[]) => {
          args[args.length - 1] = wrapCallback(args[args.length - 1]);
          return (target as unknown as Record<string, (...a: unknown[]) => unknown>)[prop]!(...args);
        };
      }
      return Reflect.get(target, prop);
    },
  });
}

/** Opens the database the environment names: DATABASE_URL selects Postgres, else PGlite. */
export async function openDatabase(opts: OpenOptions = {}): Promise<DbHandle> {
  const url = opts.url ?? process.env.DATABASE_URL;
  if (url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(url, postgresOptions());
    const db = drizzle(preparingClient(client), { schema }) as unknown as Db;
    return {
      db,
      driver: "postgres",
      location: "PostgreSQL (DATABASE_URL)",
      close: () => client.end({ timeout: 5 }),
    };
  }
  const dataDir = opts.dataDir ?? pgliteDataDir();
  if (dataDir.startsWith("memory://")) {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const client = await PGlite.create(dataDir);
    const db = drizzle(client, { schema }) as unknown as Db;
    return { db, driver: "pglite", location: dataDir, close: () => client.close() };
  }
  const { openPgliteFolder } = await import("./pglite-folder");
  return openPgliteFolder(dataDir, opts);
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

/**
 * The process's database, opened and migrated on first use. The web server passes `serve` (it owns an
 * embedded folder and shares it); the worker and scripts connect through it.
 */
export function getDbHandle(opts: Pick<OpenOptions, "serve" | "command" | "onWait"> = {}): Promise<DbHandle> {
  if (!state.__appDb) {
    state.__appDb = (async () => {
      const handle = await openDatabase(opts);
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
