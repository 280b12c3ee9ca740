import { sql } from "drizzle-orm";
import type { Db, DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import * as schema from "@/lib/db/schema";

/**
 * A second Db over the same connection whose statements are captured as sent, so a test can explain exactly what
 * a read function asks Postgres (or PGlite) for.
 */
export async function capturingDb(handle: DbHandle): Promise<{
  db: Db;
  captured: { query: string; params: unknown[] }[];
}> {
  const captured: { query: string; params: unknown[] }[] = [];
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

/**
 * The plan of a captured statement, with sequential and bitmap scans ruled out: on a test's small tables Postgres
 * rightly prefers them, and the question is whether an index can give the read its order at all.
 */
export async function planOf(handle: DbHandle, query: string, params: unknown[]): Promise<string> {
  return handle.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_bitmapscan = off`);
    const rows = rowsOf<{ "QUERY PLAN": string }>(
      await tx.execute(sql.raw(`explain (costs off) ${inline(query, params)}`)),
    );
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}
