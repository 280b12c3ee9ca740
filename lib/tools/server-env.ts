import { accessSync, constants, statSync } from "node:fs";
import { CHROME_AVAILABLE } from "./core-web-vitals/definition";
import type { Env } from "./types";

const DEFAULT_CHROME_PATH = "/usr/bin/chromium";

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

// Whether a file is an executable is asked on every job creation: the answer is kept this long per path.
const CHECK_TTL_MS = 2_000;
const checked = new Map<string, { at: number; ok: boolean }>();

function isExecutableFileCached(file: string): boolean {
  const now = Date.now();
  const hit = checked.get(file);
  if (hit && now - hit.at < CHECK_TTL_MS) return hit.ok;
  const ok = isExecutableFile(file);
  if (checked.size > 100) checked.clear();
  checked.set(file, { at: now, ok });
  return ok;
}

/**
 * The environment a tool's availability is judged with: the server's variables plus the facts only the
 * server can check (a client-safe definition cannot look at the disk). The facts are always measured
 * here, whatever the variables say, so a stray CHROME_AVAILABLE in the environment claims nothing (and
 * kept two seconds per path).
 */
export function readServerEnv(env: Env = process.env): Env {
  const chromePath = env.CHROME_PATH?.trim() || DEFAULT_CHROME_PATH;
  // Absent rather than "false": a requirement counts as met when its variable is set at all.
  return { ...env, [CHROME_AVAILABLE]: isExecutableFileCached(chromePath) ? "true" : undefined };
}
