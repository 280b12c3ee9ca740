import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";

// The embedded database folder under real processes: a server owns it and shares it on a socket, the
// admin CLI's grant is seen by the server at once, a second owner is refused with a clear message,
// and the folder is private to its owner.
let dir: string;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "shared-folder-"));
  dataDir = path.join(dir, "db");
});
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const baseEnv = () => ({ ...process.env, PGLITE_DATA_DIR: dataDir, DATABASE_URL: "", JOB_WORKER: "off" });

function run(script: string, args: string[], env: Record<string, string | undefined> = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ...baseEnv(), ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr })),
  );
  const waitFor = async (pattern: RegExp, ms = 90_000): Promise<RegExpMatchArray> => {
    const end = Date.now() + ms;
    for (;;) {
      const m = stdout.match(pattern);
      if (m) return m;
      if (child.exitCode !== null || Date.now() > end)
        throw new Error(`no ${pattern} (exit ${child.exitCode}): ${stdout} ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, waitFor };
}

async function admin(...args: string[]) {
  const { code, stdout, stderr } = await run("scripts/admin.ts", args).exited;
  if (code !== 0) throw new Error(`admin ${args.join(" ")} failed (${code}): ${stderr}`);
  return JSON.parse(stdout);
}

let server: ReturnType<typeof run>;
let url: string;
let headers: Record<string, string>;

test("a grant made by the admin CLI while the server runs shows in GET /credits at once", async () => {
  server = run("test/support/serve-app.ts", []);
  url = `http://127.0.0.1:${(await server.waitFor(/PORT (\d+)/))[1]}`;
  const owner = JSON.parse(readFileSync(path.join(dataDir, "owner.json"), "utf8"));
  expect(owner).toMatchObject({ pid: server.child.pid, role: "server", state: "serving" });

  const created = await admin("create-account", "--email", "shared@example.com");
  headers = { "x-api-key": created.apiKey, "x-api-secret": created.apiSecret };
  const before = await (await fetch(`${url}/api/v1/credits`, { headers })).json();
  expect(before.data.balance).toBe(100);

  const granted = await admin("grant", "--account", "shared@example.com", "--amount", "250");
  expect(granted.balance).toBe(350);
  const after = await (await fetch(`${url}/api/v1/credits`, { headers })).json();
  expect(after.data.balance).toBe(350);
  expect(after.data.recentTransactions[0]).toMatchObject({ type: "grant", amount: 250, balanceAfter: 350 });
}, 180_000);

test("npm run worker works through the serving process and leaves it serving when stopped", async () => {
  const worker = run("scripts/worker.ts", []);
  const line = await worker.waitFor(/\{"worker".*\}/);
  expect(JSON.parse(line[0]).database).toBe(
    `embedded PGlite at ${dataDir}, through the server process ${server.child.pid}`,
  );
  worker.child.kill("SIGTERM");
  expect((await worker.exited).code).toBe(0);
  expect((await (await fetch(`${url}/api/v1/credits`, { headers })).json()).data.balance).toBe(350);
}, 120_000);

test("the data folder is owner-only and no file in it is writable by others", () => {
  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  const loose: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (statSync(f).mode & 0o022) loose.push(f);
      if (e.isDirectory()) walk(f);
    }
  };
  walk(dataDir);
  expect(readdirSync(dataDir).length).toBeGreaterThan(5);
  expect(loose).toEqual([]);
});

test("a second server on the same folder is refused with a clear message", async () => {
  const second = await run("test/support/serve-app.ts", []).exited;
  expect(second.code).not.toBe(0);
  expect(second.stderr).toContain(`already served by process ${server.child.pid}`);
  // The first server is untouched.
  expect((await (await fetch(`${url}/api/v1/credits`, { headers })).json()).data.balance).toBe(350);
}, 120_000);

test("after the server dies its stale lock is taken over, and a holder makes a server wait, then refuse", async () => {
  server.child.kill("SIGKILL");
  await server.exited;
  // The dead server's lock is still there; the CLI takes it over and opens the folder itself.
  expect(JSON.parse(readFileSync(path.join(dataDir, "owner.json"), "utf8")).pid).toBe(server.child.pid);
  const shown = await admin("show", "--account", "shared@example.com");
  expect(shown.balance).toBe(350);

  const holder = run("test/db/hold-folder.ts", []);
  await holder.waitFor(/HOLDING/);
  const refused = await run("test/support/serve-app.ts", [], { PGLITE_LOCK_WAIT_MS: "1000" }).exited;
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain(`in use by process ${holder.child.pid} (folder holder)`);
  expect(refused.stderr).toContain("waiting");

  // Once the holder is done, the server starts and sees every write.
  holder.child.stdin!.end();
  expect((await holder.exited).code).toBe(0);
  server = run("test/support/serve-app.ts", []);
  url = `http://127.0.0.1:${(await server.waitFor(/PORT (\d+)/))[1]}`;
  expect((await (await fetch(`${url}/api/v1/credits`, { headers })).json()).data.balance).toBe(350);
}, 240_000);

test("a lock left half-written by a crash does not block the folder for ever", async () => {
  server.child.kill("SIGKILL");
  await server.exited;
  writeFileSync(path.join(dataDir, "owner.json"), "{");
  const shown = await admin("show", "--account", "shared@example.com");
  expect(shown.balance).toBe(350);
}, 120_000);
