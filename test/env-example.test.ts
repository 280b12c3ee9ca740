// `.env.example` is the one list of the environment variables the project reads. This test reads the
// sources for every variable they read and compares both ways, so a new variable cannot go unlisted and a
// removed one cannot linger.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE_DIRS = ["app", "lib", "components", "scripts", "e2e", "bench", "test"];
const ROOT_FILES = [
  "auth.ts",
  "server.ts",
  "api-routes.ts",
  "instrumentation.ts",
  "next.config.ts",
  "proxy.ts",
  "playwright.config.ts",
  "vitest.config.ts",
  "drizzle.config.ts",
];
const THIS_FILE = "test/env-example.test.ts";

/**
 * Names in the integration snippets we hand to customers: their own server reads them, this one never does.
 * Each must still occur in the sources (a stale entry fails).
 */
const CUSTOMER_SIDE = ["FINDABLE_KEY", "FINDABLE_SECRET"];

/** Read by a framework or tool rather than by our code, and set by our scripts. */
const SET_FOR_FRAMEWORKS = ["NEXT_TELEMETRY_DISABLED"];

const NAME = "[A-Z][A-Z0-9_]*";
const READS: RegExp[] = [
  // process.env.X, env.X (an injected environment record), and their bracket forms
  new RegExp(`\\benv\\.(${NAME})\\b`, "g"),
  new RegExp(`\\benv\\[\\s*["'\`](${NAME})["'\`]\\s*\\]`, "g"),
  // a provider config naming its variables: apiKeyEnv: "X", baseUrlEnv: "X", …
  new RegExp(`\\b[a-z]\\w*Env\\s*:\\s*["'](${NAME})["']`, "g"),
  // the numeric readers of the database client and the job runner
  new RegExp(`\\b(?:num|envNumber)\\(\\s*["'](${NAME})["']`, "g"),
];
const DESTRUCTURING = /\{([^{}]*)\}\s*=\s*(?:process\.)?env\b/g;

/** Every environment variable `text` reads. */
function readEnvNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const re of READS) for (const m of text.matchAll(re)) names.add(m[1]!);
  for (const m of text.matchAll(DESTRUCTURING)) {
    for (const part of m[1]!.split(",")) {
      const name = part.split(/[:=]/)[0]!.trim();
      if (new RegExp(`^${NAME}$`).test(name)) names.add(name);
    }
  }
  return names;
}

/** The names `.env.example` lists, set or commented out (`# NAME=value`). */
function listedNames(example: string): Set<string> {
  return new Set([...example.matchAll(new RegExp(`^#?\\s*(${NAME})=`, "gm"))].map((m) => m[1]!));
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) {
      if (name !== "node_modules" && name !== "fixtures") out.push(...listSources(rel));
    } else if (/\.(ts|tsx|mjs|js)$/.test(name) && rel !== THIS_FILE) out.push(rel);
  }
  return out;
}

function readsBySource(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of [...SOURCE_DIRS.flatMap(listSources), ...ROOT_FILES]) {
    for (const name of readEnvNames(readFileSync(path.join(ROOT, file), "utf8"))) {
      found.set(name, [...(found.get(name) ?? []), file]);
    }
  }
  return found;
}

describe(".env.example", () => {
  const reads = readsBySource();
  const listed = listedNames(readFileSync(path.join(ROOT, ".env.example"), "utf8"));

  test("lists every variable the sources read", () => {
    const missing = [...reads.keys()]
      .filter((name) => !listed.has(name) && !CUSTOMER_SIDE.includes(name))
      .map((name) => `${name} (read in ${reads.get(name)!.join(", ")})`);
    expect(missing).toEqual([]);
  });

  test("lists nothing the sources no longer read", () => {
    const stale = [...listed].filter((name) => !reads.has(name) && !SET_FOR_FRAMEWORKS.includes(name));
    expect(stale).toEqual([]);
  });

  test("the customer-side names are still in the snippets", () => {
    for (const name of CUSTOMER_SIDE) expect(reads.has(name), name).toBe(true);
  });
});

describe("the reader itself", () => {
  test("finds direct, bracket, injected, destructured, config and helper reads", () => {
    const pe = "process.env";
    const text = [
      `const a = ${pe}.ALPHA ?? "x";`,
      `const b = ${pe}["BRAVO"];`,
      `function f(env = ${pe}) { return env.CHARLIE?.trim(); }`,
      `const { DELTA: d, ECHO = "1" } = ${pe};`,
      `export const C = { apiKeyEnv: "FOXTROT", defaultModel: "NOT_A_VAR" };`,
      `const n = num("GOLF", 4);`,
      `throw new ToolError("HOTEL_CODE", "x");`,
      `const lower = ${pe}.npm_config_x;`,
    ].join("\n");
    expect([...readEnvNames(text)].sort()).toEqual([
      "ALPHA",
      "BRAVO",
      "CHARLIE",
      "DELTA",
      "ECHO",
      "FOXTROT",
      "GOLF",
    ]);
  });

  test("reads listed names whether set or commented out, and ignores prose", () => {
    const example = ["# The port.", "# PORT=3000", "HOST=localhost", "# see NOT_LISTED for more", ""].join(
      "\n",
    );
    expect([...listedNames(example)].sort()).toEqual(["HOST", "PORT"]);
  });
});
