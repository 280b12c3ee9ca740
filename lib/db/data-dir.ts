import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";

// One process owns an embedded database folder at a time: two PGlite instances on one folder do
// not see each other's writes and overwrite each other's pages. The owner records itself in
// `owner.json`; a long-running server also serves the database on a unix socket so that the admin
// CLI and the worker reach it through the server instead of opening the folder a second time.

type OwnerRole = "server" | "exclusive";

interface OwnerRecord {
  pid: number;
  /** Tells this process's lock from a dead one whose pid was reused (containers restart at the same pid). */
  instance: string;
  /** The kernel's start time of the process, where /proc exposes it; guards against pid reuse. */
  startedAt: string | null;
  role: OwnerRole;
  state: "starting" | "serving" | "holding";
  socket: string | null;
  command: string;
}

export class DataDirBusyError extends Error {
  readonly code = "DATA_DIR_BUSY";
}

const instance = randomBytes(8).toString("hex");
const LOCK_FILE = "owner.json";

function lockPath(dataDir: string): string {
  return path.join(dataDir, LOCK_FILE);
}

function processStartTime(pid: number): string | null {
  try {
    // Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces, so count from its end.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** The data folder, created owner-only; files other users could write are tightened. */
export function secureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  tightenModes(dataDir);
}

/** Clears group and world write bits below dir (PGlite's file system creates its files 0666). */
export function tightenModes(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    try {
      const mode = statSync(file).mode & 0o7777;
      if (entry.isDirectory()) {
        if (mode & 0o077) chmodSync(file, mode & 0o700);
        tightenModes(file);
      } else if (mode & 0o077) {
        chmodSync(file, mode & 0o700);
      }
    } catch {
      // A file PGlite removed meanwhile.
    }
  }
}

function readOwner(dataDir: string): OwnerRecord | null {
  try {
    return JSON.parse(readFileSync(lockPath(dataDir), "utf8")) as OwnerRecord;
  } catch {
    return null;
  }
}

function isOwnerAlive(owner: OwnerRecord): boolean {
  if (owner.pid === process.pid) return owner.instance === instance;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const started = processStartTime(owner.pid);
  return !(owner.startedAt && started && owner.startedAt !== started);
}

function describeOwner(owner: OwnerRecord): string {
  return `process ${owner.pid} (${owner.command})`;
}

/** Removes a dead owner's lock; a mkdir guards the take-over so two newcomers cannot both win. */
function takeOverStale(dataDir: string, seen: OwnerRecord | null): void {
  const guard = `${lockPath(dataDir)}.takeover`;
  try {
    mkdirSync(guard);
  } catch {
    // Another process is taking over; a guard left by a crash is cleared after 10 s.
    try {
      if (Date.now() - statSync(guard).mtimeMs > 10_000) rmdirSync(guard);
    } catch {}
    return;
  }
  try {
    const now = readOwner(dataDir);
    const same = now === null ? seen === null : seen !== null && now.instance === seen.instance;
    if (same) {
      try {
        unlinkSync(lockPath(dataDir));
      } catch {}
      if (seen?.socket) {
        try {
          unlinkSync(seen.socket);
        } catch {}
      }
    }
  } finally {
    rmdirSync(guard);
  }
}

class DataDirLock {
  constructor(
    readonly dataDir: string,
    private record: OwnerRecord,
  ) {}

  get owner(): OwnerRecord {
    return this.record;
  }

  update(patch: Partial<Pick<OwnerRecord, "state" | "socket">>): void {
    this.record = { ...this.record, ...patch };
    writeRecord(lockPath(this.dataDir), this.record, "w");
  }

  /** Drops the lock if it is still this process's. Synchronous, so an exit handler can call it. */
  release(): void {
    const current = readOwner(this.dataDir);
    if (current?.instance === this.record.instance && current.pid === this.record.pid) {
      try {
        unlinkSync(lockPath(this.dataDir));
      } catch {}
    }
  }
}

function writeRecord(file: string, record: OwnerRecord, flags: "wx" | "w"): void {
  const fd = openSync(file, flags, 0o600);
  try {
    writeSync(fd, JSON.stringify(record));
  } finally {
    closeSync(fd);
  }
}

export type Claim =
  | { kind: "owner"; lock: DataDirLock }
  | { kind: "socket"; socket: string; owner: OwnerRecord };

export interface ClaimOptions {
  role: OwnerRole;
  /** What the lock shows to a process that finds the folder busy. */
  command: string;
  /** How long to wait for an exclusive holder (the admin CLI, a migration) to finish. */
  waitMs?: number;
  /** Said once when the folder is busy and the claim waits. */
  onWait?: (message: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Decides how this process reaches the folder: it owns it (no live owner), it connects to the
 * serving server's socket, or it waits for an exclusive holder and then refuses with a clear message.
 * A server never shares a folder with another server.
 */
export async function claimDataDir(dataDir: string, opts: ClaimOptions): Promise<Claim> {
  secureDataDir(dataDir);
  const deadline = Date.now() + (opts.waitMs ?? 30_000);
  let told = false;
  let unreadableSince: number | null = null;
  for (;;) {
    const record: OwnerRecord = {
      pid: process.pid,
      instance,
      startedAt: processStartTime(process.pid),
      role: opts.role,
      state: opts.role === "server" ? "starting" : "holding",
      socket: null,
      command: opts.command,
    };
    try {
      writeRecord(lockPath(dataDir), record, "wx");
      return { kind: "owner", lock: new DataDirLock(dataDir, record) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const owner = readOwner(dataDir);
    if (!owner) {
      // Written this instant, or left half-written by a crash: give a writer a moment.
      unreadableSince ??= Date.now();
      if (Date.now() - unreadableSince > 2_000) takeOverStale(dataDir, null);
      await sleep(50);
      continue;
    }
    unreadableSince = null;
    if (!isOwnerAlive(owner)) {
      takeOverStale(dataDir, owner);
      continue;
    }
    if (owner.role === "server") {
      if (opts.role === "server") {
        throw new DataDirBusyError(
          `The embedded database in ${dataDir} is already served by ${describeOwner(owner)}. ` +
            "Stop that server first, or point PGLITE_DATA_DIR at another folder.",
        );
      }
      if (owner.state === "serving" && owner.socket) return { kind: "socket", socket: owner.socket, owner };
    }
    const message =
      owner.role === "server"
        ? `The server ${describeOwner(owner)} is still opening the embedded database in ${dataDir}; waiting…`
        : `The embedded database in ${dataDir} is in use by ${describeOwner(owner)}; waiting for it to finish…`;
    if (Date.now() > deadline) {
      throw new DataDirBusyError(
        `The embedded database in ${dataDir} is in use by ${describeOwner(owner)}. ` +
          "Only one process may open it directly; wait for that command to finish (or stop it) and try again.",
      );
    }
    if (!told) {
      told = true;
      opts.onWait?.(message);
    }
    await sleep(200);
  }
}
