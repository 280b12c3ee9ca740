// npm start: build if the sources changed, migrate, make sure the demo account exists, then serve.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { migrateDatabase, openDatabase, pgliteDataDir } from "@/lib/db/client";
import { DataDirBusyError } from "@/lib/db/data-dir";
import { serverNodeFlags, serverProcessEnv } from "@/lib/server/node-flags";
import { ensureDemoWorkspace } from "@/lib/tracking/demo/demo-workspace";

const root = process.cwd();
const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "localhost";
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

// next-auth signs sessions with AUTH_SECRET: without one, generate it once and keep it in .data/auth-secret
// (owner-only) so that sessions survive restarts.
if (!env.AUTH_SECRET) {
  const secretFile = path.join(root, ".data", "auth-secret");
  if (!existsSync(secretFile)) {
    mkdirSync(path.dirname(secretFile), { recursive: true });
    writeFileSync(secretFile, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  env.AUTH_SECRET = readFileSync(secretFile, "utf8").trim();
}
// Local runs answer on localhost; behind a proxy set AUTH_URL (or AUTH_TRUST_HOST) yourself.
env.AUTH_TRUST_HOST ??= "true";

/** A fingerprint of everything the build depends on, so `npm start` rebuilds only when needed. */
function sourceStamp(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (!entry.name.endsWith(".test.ts"))
        hash.update(`${file}:${statSync(file).size}:${statSync(file).mtimeMs}\n`);
    }
  };
  for (const dir of ["app", "lib", "components", "public", "drizzle"]) walk(path.join(root, dir));
  for (const file of [
    "package-lock.json",
    "next.config.ts",
    "instrumentation.ts",
    "auth.ts",
    "postcss.config.mjs",
    "tsconfig.json",
  ]) {
    if (existsSync(file)) hash.update(`${file}:${statSync(file).mtimeMs}\n`);
  }
  return hash.digest("hex");
}

const distDir = path.join(root, process.env.NEXT_DIST_DIR ?? ".next");
const stampFile = path.join(distDir, "source-stamp");
const stamp = sourceStamp();
if (
  !existsSync(path.join(distDir, "BUILD_ID")) ||
  !existsSync(stampFile) ||
  readFileSync(stampFile, "utf8") !== stamp
) {
  console.log("Building the production bundle (first start, or the sources changed)…");
  const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stampFile, stamp);
}

const handle = await openDatabase({ command: "npm start (migrations)" }).catch((err: Error) => {
  // The embedded folder is held by another command (admin CLI, worker) or served by another server.
  if (err instanceof DataDirBusyError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
});
await migrateDatabase(handle);
const credentialsFile =
  process.env.DEMO_CREDENTIALS_FILE ?? path.join(path.dirname(pgliteDataDir()), "demo-credentials.json");
const demo = await ensureDemoWorkspace(handle.db, credentialsFile);
await handle.close();

const base = `http://${host}:${port}`;
// The OpenAPI document's and the Postman collection's server address: never taken from a request's Host.
env.PUBLIC_BASE_URL ??= base;
console.log(`
Node ${process.version}
Database: ${handle.location}
${demoLines()}
Serving on ${base}
`);

// The secret is printed once, when the demo account is created; later starts point at the owner-only file.
function demoLines(): string {
  if (!demo.created) {
    return `Demo account ready: ${demo.email}, domain ${demo.domain}
  x-api-key:    ${demo.apiKey}
  x-api-secret: in ${credentialsFile} (readable only by you)`;
  }
  return `Demo account created: ${demo.email}, domain ${demo.domain}
  x-api-key:    ${demo.apiKey}
  x-api-secret: ${demo.apiSecret}   (shown once; also kept in ${credentialsFile})
Try: curl -s ${base}/api/v1/credits -H "x-api-key: ${demo.apiKey}" -H "x-api-secret: ${demo.apiSecret}"`;
}

// server.ts owns the socket (client address and scheme per TRUST_PROXY) and hands requests to Next.
const server = spawn(
  process.execPath,
  [...serverNodeFlags(env), "--import", "tsx", path.join(root, "server.ts")],
  {
    stdio: "inherit",
    env: { ...env, ...serverProcessEnv(env), NODE_ENV: "production", PORT: port, HOST: host },
  },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
