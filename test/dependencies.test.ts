// The layer order, enforced by dependency-cruiser: app/, components/, lib/ and auth.ts are cruised once with the
// rules of .dependency-cruiser.cjs, and an upward import, a tool importing another tool's folder or an import
// cycle fails the suite. Rules that depend on a file's "use client" / "use server" directive, and the cycles
// between top-level lib folders, are checked here on the same cruise's graph.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { cruise, type IConfiguration, type ICruiseResult } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { beforeAll, describe, expect, test } from "vitest";
import { TOOL_NAMES } from "@/lib/tools/catalog";

const ROOT = path.resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);

interface Edge {
  target: string;
  /** `import type` / `export type`: erased at build time, so it creates no runtime edge. */
  typeOnly: boolean;
}

interface SourceFile {
  file: string;
  imports: Edge[];
  directive: "use client" | "use server" | null;
}

let result: ICruiseResult;
const files = new Map<string, SourceFile>();
/** Every module's runtime imports, packages and Node's own modules included (by their specifier). */
const runtimeEdges = new Map<string, { module: string; resolved: string; project: boolean }[]>();

function readDirective(file: string): SourceFile["directive"] {
  if (!/\.tsx?$/.test(file)) return null;
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const first = text.replace(/^(\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, "");
  if (/^["']use client["']/.test(first)) return "use client";
  if (/^["']use server["']/.test(first)) return "use server";
  return null;
}

beforeAll(async () => {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const config = require(path.join(ROOT, ".dependency-cruiser.cjs")) as IConfiguration;
    const output = await cruise(
      ["app", "components", "lib", "auth.ts"],
      { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true },
      undefined,
      { tsConfig: extractTSConfig(path.join(ROOT, "tsconfig.json")) },
    );
    result = output.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
  for (const m of result.modules) {
    runtimeEdges.set(
      m.source,
      m.dependencies
        .filter((d) => !d.dependencyTypes.includes("type-only") && !d.dependencyTypes.includes("type-import"))
        .map((d) => ({
          module: d.module,
          resolved: d.resolved,
          project: !d.coreModule && !d.couldNotResolve && !d.resolved.includes("node_modules"),
        })),
    );
    if (m.coreModule || m.couldNotResolve || m.source.includes("node_modules")) continue;
    files.set(m.source, {
      file: m.source,
      directive: readDirective(m.source),
      imports: m.dependencies
        .filter((d) => !d.coreModule && !d.couldNotResolve && !d.resolved.includes("node_modules"))
        .map((d) => ({
          target: d.resolved,
          typeOnly: d.dependencyTypes.includes("type-only") || d.dependencyTypes.includes("type-import"),
        })),
    });
  }
}, 120_000);

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);
const libFolder = (file: string) =>
  file.startsWith("lib/") ? (file.split("/")[1] ?? "").replace(/\.tsx?$/, "") : null;

/** Every path from a "use client" file through runtime imports to lib/db. */
function clientPathsToDb(graph: ReadonlyMap<string, SourceFile>): string[] {
  const found: string[] = [];
  for (const entry of graph.values()) {
    if (entry.directive !== "use client") continue;
    // A "use server" module is only a reference on the client, so the walk stops there.
    const seen = new Set<string>([entry.file]);
    const queue: string[][] = [[entry.file]];
    while (queue.length > 0) {
      const trail = queue.shift()!;
      for (const i of graph.get(trail.at(-1)!)?.imports ?? []) {
        if (i.typeOnly || seen.has(i.target)) continue;
        seen.add(i.target);
        if (under(i.target, "lib/db")) found.push([...trail, i.target].join(" -> "));
        else if (graph.get(i.target)?.directive !== "use server") queue.push([...trail, i.target]);
      }
    }
  }
  return found;
}

/** Cycles between top-level lib folders (a file's folder importing a folder that imports it back). */
function folderCycles(graph: ReadonlyMap<string, SourceFile>): string[] {
  const edges = new Map<string, Set<string>>();
  for (const f of graph.values()) {
    const a = libFolder(f.file);
    if (!a) continue;
    for (const i of f.imports) {
      const b = libFolder(i.target);
      if (!b || a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
  }
  const cycles: string[] = [];
  for (const start of edges.keys()) {
    // Depth-first from each folder back to itself; each cycle is reported from its smallest name.
    const stack: string[][] = [[start]];
    while (stack.length > 0) {
      const trail = stack.pop()!;
      for (const next of edges.get(trail.at(-1)!) ?? []) {
        if (next === start) {
          if (trail.every((n) => n >= start)) cycles.push([...trail, start].join(" -> "));
        } else if (!trail.includes(next) && next > start) stack.push([...trail, next]);
      }
    }
  }
  return cycles.sort();
}

describe("layer order (.dependency-cruiser.cjs)", () => {
  test("no import breaks a rule of .dependency-cruiser.cjs", () => {
    const violations = result.summary.violations.map(
      (v) =>
        `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" -> ")})` : ""}`,
    );
    expect(violations).toEqual([]);
  });

  test("the cruise saw the project: every lib folder, resolved through the @/ paths", () => {
    expect(files.size).toBeGreaterThan(300);
    expect(files.get("lib/jobs/create.ts")?.imports.map((i) => i.target)).toContain("lib/db/errors.ts");
    expect(result.modules.filter((m) => m.couldNotResolve && m.source.startsWith("@/"))).toEqual([]);
  });

  test("client code (a 'use client' file and what it loads) never reaches lib/db", () => {
    expect(clientPathsToDb(files)).toEqual([]);
  });

  test("client components import server actions from lib/actions, never from app/", () => {
    const found: string[] = [];
    for (const f of files.values()) {
      if (!under(f.file, "components") && f.directive !== "use client") continue;
      for (const i of f.imports) {
        if (under(i.target, "app") && files.get(i.target)?.directive === "use server") {
          found.push(`${f.file} -> ${i.target}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  test("no import cycle between top-level lib folders", () => {
    expect(folderCycles(files)).toEqual([]);
  });
});

describe("the checks themselves", () => {
  const file = (name: string, directive: SourceFile["directive"], imports: [string, boolean?][]) =>
    [
      name,
      {
        file: name,
        directive,
        imports: imports.map(([target, typeOnly]) => ({ target, typeOnly: !!typeOnly })),
      },
    ] as const;

  test("a client component reaching lib/db through a helper is caught; types and server actions are not", () => {
    const graph = new Map<string, SourceFile>([
      file("components/a.tsx", "use client", [
        ["lib/helper.ts"],
        ["lib/types.ts", true],
        ["lib/actions/x.ts"],
      ]),
      file("lib/helper.ts", null, [["lib/db/client.ts"]]),
      file("lib/types.ts", null, [["lib/db/schema/index.ts"]]),
      file("lib/actions/x.ts", "use server", [["lib/db/client.ts"]]),
    ]);
    expect(clientPathsToDb(graph)).toEqual(["components/a.tsx -> lib/helper.ts -> lib/db/client.ts"]);
  });

  test("a cycle between lib folders is found once, from its smallest name", () => {
    const graph = new Map<string, SourceFile>([
      file("lib/b/x.ts", null, [["lib/a/y.ts"]]),
      file("lib/a/y.ts", null, [["lib/c.ts"]]),
      file("lib/c.ts", null, [["lib/b/z.ts"]]),
      file("lib/d/w.ts", null, [["lib/a/y.ts"]]),
    ]);
    expect(folderCycles(graph)).toEqual(["a -> c -> b -> a"]);
  });

  test("the rules catch an upward import, a tool importing another tool, and a cycle", async () => {
    // A small project of its own in a temporary folder, cruised with the same rules.
    const dir = mkdtempSync(path.join(tmpdir(), "layers-"));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    try {
      write("lib/errors/index.ts", 'export { x } from "../db/client";\nexport const e = 1;\n');
      write("lib/db/client.ts", 'import { job } from "../jobs/create";\nexport const x = job;\n');
      write("lib/jobs/create.ts", 'import { api } from "../api/envelope";\nexport const job = api;\n');
      write("lib/api/envelope.ts", "export const api = 1;\n");
      write("lib/tools/serp/run.ts", 'import { a } from "../audits/run";\nexport const s = a;\n');
      write("lib/tools/audits/run.ts", 'import { s } from "../serp/run";\nexport const a = s;\n');
      write("lib/tools/audits/ok.ts", 'import { h } from "../shared/h";\nexport const o = h;\n');
      write("lib/tools/shared/h.ts", "export const h = 1;\n");
      const config = require(path.join(ROOT, ".dependency-cruiser.cjs")) as IConfiguration;
      const { tsConfig: _, ...options } = config.options!;
      const cwd = process.cwd();
      process.chdir(dir);
      let found: string[];
      try {
        const out = await cruise(["lib"], {
          ...options,
          ruleSet: { forbidden: config.forbidden },
          validate: true,
        });
        found = (out.output as ICruiseResult).summary.violations.map(
          (v) => `${v.rule.name}: ${v.from} -> ${v.to}`,
        );
      } finally {
        process.chdir(cwd);
      }
      expect(found.sort()).toEqual(
        [
          "bottom-not-up: lib/db/client.ts -> lib/jobs/create.ts",
          "errors-import-nothing: lib/errors/index.ts -> lib/db/client.ts",
          "no-circular: lib/tools/audits/run.ts -> lib/tools/serp/run.ts",
          "no-tool-imports-another: lib/tools/audits/run.ts -> lib/tools/serp/run.ts",
          "no-tool-imports-another: lib/tools/serp/run.ts -> lib/tools/audits/run.ts",
          "services-not-to-edge: lib/jobs/create.ts -> lib/api/envelope.ts",
        ].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the tool catalogue is client-safe", () => {
  // The catalogue is imported by client components: everything it reaches at run time must load in a browser.
  // Type-only imports are erased, so they may name server modules.
  const FORBIDDEN_FILES = [
    /^lib\/(db|fetch|crawl|credits|jobs|api|accounts|tracking|keys)(\/|\.tsx?$)/,
    // The providers' SDK-free configuration (engine names, key variables, models) is the one exception.
    /^lib\/providers\/(?!(engines|engine-types)\.ts$|[a-z-]+\/config\.ts$)/,
    /(^|\/)(ask|ask-engine|engine-retry|sdk-errors)\.ts$/,
    /\/run\.ts$/,
  ];
  const FORBIDDEN_PACKAGES = [
    /^node:/,
    new RegExp(`^(${builtinModules.join("|")})(/|$)`),
    /^(drizzle-orm|postgres|@electric-sql\/pglite|undici|cheerio|lighthouse|puppeteer-core)(\/|$)/,
    /^(openai|@anthropic-ai\/sdk|@google\/genai)(\/|$)/,
  ];

  /** Every import reached at run time from the catalogue, as "file -> what it imports". */
  function reachedFromCatalogue(): { file: string; module: string; resolved: string; project: boolean }[] {
    const found: { file: string; module: string; resolved: string; project: boolean }[] = [];
    const seen = new Set<string>();
    const queue = ["lib/tools/catalog.ts"];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const edge of runtimeEdges.get(file) ?? []) {
        found.push({ file, ...edge });
        if (edge.project) queue.push(edge.resolved);
      }
    }
    return found;
  }

  test("it reaches every tool's definition", () => {
    const reached = new Set(reachedFromCatalogue().map((i) => i.resolved));
    for (const name of TOOL_NAMES) expect(reached, name).toContain(`lib/tools/${name}/definition.ts`);
  });

  test("no server-only module is reachable from it", () => {
    const bad = reachedFromCatalogue().filter((i) =>
      i.project
        ? FORBIDDEN_FILES.some((re) => re.test(i.resolved))
        : FORBIDDEN_PACKAGES.some((re) => re.test(i.module)),
    );
    expect(bad.map((i) => `${i.file} -> ${i.module}`)).toEqual([]);
  });

  test("the walk sees packages and Node's modules: the job runner reaches crypto and drizzle-orm", () => {
    const modules = (runtimeEdges.get("lib/jobs/runner.ts") ?? []).map((e) => e.module);
    expect(modules).toContain("crypto");
    expect((runtimeEdges.get("lib/jobs/queue.ts") ?? []).map((e) => e.module)).toContain("drizzle-orm");
  });
});
