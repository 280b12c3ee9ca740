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

/**
 * The environment a tool's availability is judged with: the server's variables plus the facts only the
 * server can check (a client-safe definition cannot look at the disk). The facts are always measured
 * here, whatever the variables say, so a stray CHROME_AVAILABLE in the environment claims nothing.
 */
export function readServerEnv(env: Env = process.env): Env {
  const chromePath = env.CHROME_PATH?.trim() || DEFAULT_CHROME_PATH;
  // Absent rather than "false": a requirement counts as met when its variable is set at all.
  return { ...env, [CHROME_AVAILABLE]: isExecutableFile(chromePath) ? "true" : undefined };
}
