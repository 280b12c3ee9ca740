// The database types, apart from the code that opens a database, so the openers can share them without a cycle.
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

type Schema = typeof schema;
/** Either driver: PGlite (embedded) or postgres.js. Services take this as their first argument. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A function that works inside or outside a transaction. */
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  driver: "pglite" | "postgres";
  /** Where the connection goes, for start-up messages: never holds a password. */
  location?: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  url?: string;
  dataDir?: string;
  /**
   * A long-running server owns an embedded folder and serves it to other processes on a unix socket;
   * anything else connects to that socket when a server runs, or else holds the folder exclusively
   * while it works.
   */
  serve?: boolean;
  /** How this process appears to another that finds the folder busy. */
  command?: string;
  /** Said when the folder is busy and the open waits for its holder. */
  onWait?: (message: string) => void;
}
