import { readFileSync } from "node:fs";
import { inject } from "vitest";
import type { Db, DbHandle } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { withDatabase } from "./global-setup";

/** A fresh, migrated database for one test file: a clone of the template made by the global setup. */
export async function createTestDb(): Promise<DbHandle> {
  const template = inject("dbTemplate");
  if (template.kind === "postgres") {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const name = `t_${process.pid}_${Date.now()}_${Math.floor(performance.now() * 1000) % 1_000_000}`;
    const admin = postgres(template.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${template.template}`);
    const client = postgres(withDatabase(template.url, name), { max: 20, onnotice: () => {} });
    return {
      db: drizzle(client, { schema }) as unknown as Db,
      driver: "postgres",
      url: withDatabase(template.url, name),
      close: async () => {
        await client.end({ timeout: 5 });
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    } as DbHandle & { url: string };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const pg = await PGlite.create({ loadDataDir: new Blob([readFileSync(template.file)]) });
  return { db: drizzle(pg, { schema }) as unknown as Db, driver: "pglite", close: () => pg.close() };
}

export const isPostgres = () => inject("dbTemplate").kind === "postgres";
