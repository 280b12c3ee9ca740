import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

/**
 * Migrates one database and lets every test file clone it: a PGlite data-dir dump by default,
 * or a Postgres template database when DATABASE_URL is set.
 */
export default async function setup(project: TestProject) {
  const { openDatabase, migrateDatabase } = await import("../lib/db/client");
  const url = process.env.DATABASE_URL;
  if (url) {
    const { default: postgres } = await import("postgres");
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    const template = `tmpl_${process.pid}_${Date.now()}`;
    await admin.unsafe(`create database ${template}`);
    const handle = await openDatabase({ url: withDatabase(url, template) });
    await migrateDatabase(handle);
    await handle.close();
    project.provide("dbTemplate", { kind: "postgres", url, template });
    return async () => {
      await admin.unsafe(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const pg = await PGlite.create("memory://");
  await migrate(drizzle(pg), { migrationsFolder: path.join(process.cwd(), "drizzle") });
  const dump = await pg.dumpDataDir("none");
  await pg.close();
  const dir = mkdtempSync(path.join(os.tmpdir(), "pglite-template-"));
  const file = path.join(dir, "template.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("dbTemplate", { kind: "pglite", file });
  return () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: { kind: "postgres"; url: string; template: string } | { kind: "pglite"; file: string };
  }
}
