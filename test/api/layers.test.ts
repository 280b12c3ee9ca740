import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

// Imports run one way: the HTTP and MCP edges (lib/api, lib/mcp, lib/openapi, app/) may use the
// services, never the reverse; the fetch layer knows nothing of tools.
const ROOT = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

function importsOf(file: string): string[] {
  const source = readFileSync(path.join(ROOT, file), "utf8");
  return [...source.matchAll(/^(?:import|export)\s[^"']*?["']([^"']+)["']/gm)].map((m) => m[1]!);
}

function offenders(dirs: string[], forbidden: RegExp): string[] {
  return dirs.flatMap(sourceFiles).flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden.test(spec))
      .map((spec) => `${file} → ${spec}`),
  );
}

test("services never import the HTTP layer (lib/api) or the app", () => {
  const services = [
    "lib/credits",
    "lib/jobs",
    "lib/keys",
    "lib/tools",
    "lib/errors",
    "lib/fetch",
    "lib/accounts",
  ];
  expect(offenders(services, /^@\/(lib\/api|app)(\/|$)/)).toEqual([]);
});

test("lib/fetch never imports lib/tools", () => {
  expect(offenders(["lib/fetch"], /^@\/lib\/tools(\/|$)/)).toEqual([]);
});

test("lib/errors depends on nothing of the project", () => {
  expect(offenders(["lib/errors"], /^@\//)).toEqual([]);
});

test("no lib module imports app/", () => {
  expect(offenders(["lib"], /^@\/app(\/|$)/)).toEqual([]);
});
