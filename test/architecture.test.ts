// The layer order, enforced: every source file's imports are read and checked against the rules below, so an
// upward import fails the suite instead of waiting for a review to notice it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE_DIRS = ["app", "components", "lib"];
const ROOT_FILES = ["auth.ts"];

interface Import {
  target: string;
  /** `import type` / `export type`: erased at build time, so it creates no runtime edge. */
  typeOnly: boolean;
}

interface SourceFile {
  file: string;
  imports: Import[];
  directive: "use client" | "use server" | null;
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...listSources(rel));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

const IMPORT_RE =
  /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The project file an import specifier names, or null for a package. */
function resolveSpecifier(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const full = path.join(ROOT, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return base;
}

function readImports(file: string, text: string): Import[] {
  const imports: Import[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[3] ?? m[4];
    if (!spec) continue;
    const target = resolveSpecifier(file, spec);
    if (target) imports.push({ target, typeOnly: Boolean(m[2]) });
  }
  return imports;
}

function readDirective(text: string): SourceFile["directive"] {
  const first = text.replace(/^(\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, "");
  if (/^["']use client["']/.test(first)) return "use client";
  if (/^["']use server["']/.test(first)) return "use server";
  return null;
}

const files = new Map<string, SourceFile>();
for (const file of [...SOURCE_DIRS.flatMap(listSources), ...ROOT_FILES]) {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  files.set(file, { file, imports: readImports(file, text), directive: readDirective(text) });
}

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);
const libFolder = (file: string) =>
  file.startsWith("lib/") ? (file.split("/")[1] ?? "").replace(/\.tsx?$/, "") : null;

/** Imports that break a rule today and are removed by work in flight; a stale entry fails too. */
const PENDING: Record<string, string[]> = {};

function violations(rule: (from: string, to: string) => boolean): string[] {
  const found: string[] = [];
  for (const f of files.values()) {
    for (const i of f.imports) if (rule(f.file, i.target)) found.push(`${f.file} -> ${i.target}`);
  }
  return found;
}

function withoutPending(found: string[]): string[] {
  return found.filter((v) => {
    const [from, to] = v.split(" -> ");
    return !PENDING[from ?? ""]?.includes(to ?? "");
  });
}

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

describe("layer order", () => {
  test("lib never imports app/ or the root auth.ts", () => {
    expect(violations((from, to) => under(from, "lib") && (under(to, "app") || to === "auth.ts"))).toEqual(
      [],
    );
  });

  test("lib/fetch never imports lib/tools", () => {
    const found = violations((from, to) => under(from, "lib/fetch") && under(to, "lib/tools"));
    expect(withoutPending(found)).toEqual([]);
  });

  test("every pending exception still exists (remove it once fixed)", () => {
    for (const [from, targets] of Object.entries(PENDING)) {
      for (const to of targets) expect(files.get(from)?.imports.map((i) => i.target)).toContain(to);
    }
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
    const edges = new Map<string, Set<string>>();
    for (const f of files.values()) {
      const a = libFolder(f.file);
      if (!a) continue;
      for (const i of f.imports) {
        const b = libFolder(i.target);
        if (!b || a === b || PENDING[f.file]?.includes(i.target)) continue;
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
    expect(cycles.sort()).toEqual([]);
  });
});

describe("the checks themselves", () => {
  test("a client component reaching lib/db through a helper is caught; types and server actions are not", () => {
    const file = (name: string, directive: SourceFile["directive"], imports: [string, boolean?][]) =>
      [
        name,
        {
          file: name,
          directive,
          imports: imports.map(([target, typeOnly]) => ({ target, typeOnly: !!typeOnly })),
        },
      ] as const;
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
});

describe("the import reader", () => {
  test("reads static, re-export, type-only and dynamic imports, and resolves them to files", () => {
    const text = [
      `import { a } from "@/lib/db/client";`,
      `import type { B } from "./members";`,
      `export { c } from "../accounts/lookup";`,
      `const d = await import("@/lib/keys/keys");`,
      `import "server-only";`,
    ].join("\n");
    expect(readImports("lib/dashboard/domains.ts", text)).toEqual([
      { target: "lib/db/client.ts", typeOnly: false },
      { target: "lib/dashboard/members.ts", typeOnly: true },
      { target: "lib/accounts/lookup.ts", typeOnly: false },
      { target: "lib/keys/keys.ts", typeOnly: false },
    ]);
  });
});
