import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { claimDataDir, tightenModes } from "./data-dir";
import * as schema from "./schema";
import type { Db, DbHandle, OpenOptions } from "./types";

// Linux allows 107 bytes in a unix socket path.
const MAX_SOCKET_PATH = 100;

function commandLine(): string {
  const script = process.argv[1] ? path.basename(process.argv[1]) : "node";
  return `${script} ${process.argv.slice(2).join(" ")}`.trim().slice(0, 120);
}

/** A socket path inside the owner-only data folder, or in a private temporary folder when that is too long. */
function socketPathFor(dataDir: string): { socket: string; cleanup: () => void } {
  const inside = path.join(dataDir, ".s.PGSQL.5432");
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return { socket: inside, cleanup: () => {} };
  const dir = mkdtempSync(path.join(os.tmpdir(), "pglite-"));
  return {
    socket: path.join(dir, ".s.PGSQL.5432"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * An embedded database folder, opened so that it is never split between processes: directly when no
 * one else has it (a server then shares it on a unix socket), through the serving process's socket
 * otherwise, or — when another process holds it exclusively — after waiting, with a clear refusal.
 */
export async function openPgliteFolder(dataDir: string, opts: OpenOptions): Promise<DbHandle> {
  const claim = await claimDataDir(dataDir, {
    role: opts.serve ? "server" : "exclusive",
    command: opts.command ?? commandLine(),
    waitMs: Number(process.env.PGLITE_LOCK_WAIT_MS ?? 30_000),
    onWait: opts.onWait ?? ((message) => console.error(message)),
  });
  if (claim.kind === "socket") {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres({
      path: claim.socket,
      user: "postgres",
      database: "postgres",
      max: 4,
      // Named statements would live in the server's one PGlite session beside other clients' names.
      prepare: false,
      onnotice: () => {},
      connect_timeout: 5,
    });
    const db = drizzle(client, { schema }) as unknown as Db;
    return {
      db,
      driver: "postgres",
      location: `embedded PGlite at ${dataDir}, through the server process ${claim.owner.pid}`,
      close: () => client.end({ timeout: 5 }),
    };
  }

  const lock = claim.lock;
  const releaseOnExit = () => lock.release();
  process.once("exit", releaseOnExit);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const pg = await PGlite.create(dataDir);
    tightenModes(dataDir);
    const db = drizzle(pg, { schema }) as unknown as Db;
    let stopServing = async () => {};
    if (opts.serve) {
      const { servePgliteSocket } = await import("./pglite-socket");
      const { socket, cleanup } = socketPathFor(dataDir);
      const server = await servePgliteSocket(pg, socket);
      lock.update({ state: "serving", socket });
      stopServing = async () => {
        await server.close();
        cleanup();
      };
    }
    // Under a permissive umask PGlite creates its files 0666; tighten the new ones now and then.
    const sweep = setInterval(() => tightenModes(dataDir), 60_000);
    sweep.unref();
    let closed = false;
    return {
      db,
      driver: "pglite",
      location: `embedded PGlite at ${dataDir}`,
      close: async () => {
        if (closed) return;
        closed = true;
        clearInterval(sweep);
        try {
          await stopServing();
          await pg.close();
          tightenModes(dataDir);
        } finally {
          lock.release();
          process.off("exit", releaseOnExit);
        }
      },
    };
  } catch (err) {
    lock.release();
    process.off("exit", releaseOnExit);
    throw err;
  }
}
