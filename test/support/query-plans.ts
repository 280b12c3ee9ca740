import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Db, DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import * as schema from "@/lib/db/schema";
import { dbTest } from "./fixtures";

interface Captured {
  query: string;
  params: unknown[];
}

/**
 * A second Db over the same connection whose statements are captured as sent, so a test can explain exactly what
 * a read function asks Postgres (or PGlite) for.
 */
async function capturingDb(handle: DbHandle): Promise<{ db: Db; captured: Captured[] }> {
  const captured: Captured[] = [];
  const client = (handle.db as unknown as { $client: unknown }).$client;
  const logger = { logQuery: (query: string, params: unknown[]) => captured.push({ query, params }) };
  if (handle.driver === "postgres") {
    const { drizzle } = await import("drizzle-orm/postgres-js");
    return { db: drizzle(client as never, { schema, logger }) as unknown as Db, captured };
  }
  const { drizzle } = await import("drizzle-orm/pglite");
  return { db: drizzle(client as never, { schema, logger }) as unknown as Db, captured };
}

/** The statement with its parameters written in as literals (text quoted, numbers as they are). */
function inline(query: string, params: unknown[]): string {
  return query.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    if (v === null || v === undefined) return "null";
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    const text = v instanceof Date ? v.toISOString() : String(v);
    return `'${text.replaceAll("'", "''")}'`;
  });
}

/** The means to explain what a read sends (see planTest). */
export interface PlanDb {
  /** The file's database. */
  db: Db;
  /** A Db over the same connection whose statements are captured. */
  logged: Db;
  /** With `analyze`, the plan as run: each node's actual row count (no timings). */
  planOf(
    read: (db: Db) => Promise<unknown>,
    pattern: RegExp,
    options?: { analyze?: boolean },
  ): Promise<string>;
}

/**
 * dbTest plus `plans`, the means to explain what a read sends: `logged` is a Db whose statements are captured;
 * `planOf(read, pattern)` runs `read` against it and returns the plan of the one statement matching `pattern`,
 * explained with sequential and bitmap scans ruled out (on a test's small tables Postgres rightly prefers them,
 * and the question is whether an index can give the read its order at all).
 */
export const planTest = dbTest.extend("plans", { scope: "file" }, async ({ handle }): Promise<PlanDb> => {
  const { db: logged, captured } = await capturingDb(handle);
  return {
    db: handle.db,
    logged,
    async planOf(read, pattern, options = {}) {
      captured.length = 0;
      await read(logged);
      const sent = captured.filter((c) => pattern.test(c.query));
      expect(sent).toHaveLength(1);
      return handle.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        const rows = rowsOf<{ "QUERY PLAN": string }>(
          await tx.execute(
            sql.raw(
              `explain (costs off${options.analyze ? ", analyze, buffers off, timing off, summary off" : ""}) ${inline(sent[0]!.query, sent[0]!.params)}`,
            ),
          ),
        );
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
    },
  };
});
