import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { TOOL_NAMES } from "@/lib/tools/catalog";

// The catalogue is imported by client components: everything it reaches at run time must load in a
// browser. Type-only imports are erased, so they may name server modules.
const ROOT = path.resolve(__dirname, "../..");
const FORBIDDEN = [
  /^node:/,
  new RegExp(`^(${builtinModules.join("|")})(/|$)`),
  /^@\/lib\/(db|fetch|crawl|credits|jobs|api|accounts|tracking|keys)(\/|$)/,
  // The providers' SDK-free configuration (engine names, key variables, models) is the one exception.
  /^@\/lib\/providers\/(?!(engines|engine-types)$)/,
  /^(drizzle-orm|postgres|@electric-sql\/pglite|undici|cheerio|lighthouse|puppeteer-core)(\/|$)/,
  /^(openai|@anthropic-ai\/sdk|@google\/genai)(\/|$)/,
  /(^|\/)(ask|ask-engine|engine-retry|sdk-errors)(\.ts)?$/,
  /\/run(\.ts)?$/,
];

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith("@/")
    ? path.join(ROOT, spec.slice(2))
    : path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  }
  return null;
}

/** Every module specifier reached at run time from `entry`, with the file that imports it. */
function runtimeImports(entry: string): { file: string; spec: string }[] {
  const seen = new Set<string>();
  const found: { file: string; spec: string }[] = [];
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    const re = /^(?:import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
    for (const m of source.matchAll(re)) {
      if (m[1]) continue;
      const spec = m[2]!;
      found.push({ file: path.relative(ROOT, file), spec });
      if (spec.startsWith(".") || spec.startsWith("@/")) {
        const next = resolve(file, spec);
        if (next) queue.push(next);
      }
    }
  }
  return found;
}

describe("the tool catalogue is client-safe", () => {
  const imports = runtimeImports(path.join(ROOT, "lib/tools/catalog.ts"));

  test("it reaches every tool's definition", () => {
    for (const name of TOOL_NAMES) {
      expect(imports.some((i) => i.spec === `./${name}/definition`)).toBe(true);
    }
  });

  test("no server-only module is reachable from it", () => {
    const bad = imports.filter((i) => FORBIDDEN.some((re) => re.test(i.spec)));
    expect(bad).toEqual([]);
  });
});
