import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { VISIBILITY_DAYS } from "@/lib/ai-visibility/api-schemas";
import { JOBS_PAGE } from "@/lib/jobs/list";
import { API_ROUTES } from "@/lib/openapi/operations";
import { CITATIONS_DAYS, CITATIONS_LIMIT } from "@/lib/tracking/api-schemas";
import { MAX_EVENTS_PER_BATCH } from "@/lib/tracking/ingest/event-schema";

const ROOT = path.resolve(__dirname, "../..");

function sources(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!statSync(abs, { throwIfNoEntry: false })) return [];
  if (statSync(abs).isFile()) return [dir];
  return readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** Every route file under app/api/v1 that answers operations (not the catch-all 404s). */
const routeFiles = sources("app/api/v1").filter((f) => f.endsWith("route.ts"));

describe("one contract per route", () => {
  test("every /api/v1 route file implements declared contracts and parses nothing by hand", () => {
    const operational = routeFiles.filter((f) =>
      readFileSync(path.join(ROOT, f), "utf8").includes("methods("),
    );
    expect(operational.length).toBeGreaterThanOrEqual(12);
    for (const file of operational) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      expect(text, file).toMatch(/\bimplement\(/);
      for (const handRolled of ["withApiKey(", "withPublicApi(", "parseQuery(", "parseJson(", "readJson("]) {
        expect(text.includes(handRolled), `${file} calls ${handRolled}`).toBe(false);
      }
    }
    // The dynamic tool route implements each tool's contract through lib/api/tool-route.ts.
    expect(readFileSync(path.join(ROOT, "lib/api/tool-route.ts"), "utf8")).toMatch(
      /implement\(toolContract\(tool\)/,
    );
  });

  test("operation ids are unique and every operation has a success response", () => {
    const ids = API_ROUTES.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of API_ROUTES) expect(r.success.data ?? r.success.raw, r.operationId).toBeDefined();
  });

  test("no hand-kept operation list is left", () => {
    expect(statSync(path.join(ROOT, "lib/openapi/routes.ts"), { throwIfNoEntry: false })).toBeUndefined();
  });
});

/**
 * The files where a limit of the API would be restated if it were: the contracts, the edges (REST, MCP),
 * the documents and the dashboard pages that show the same reports.
 */
const EDGES = [
  "lib/routes",
  "lib/mcp",
  "lib/openapi",
  "lib/docs",
  "lib/api",
  "app/api",
  "app/(dashboard)/dashboard/citations",
  "app/(dashboard)/dashboard/visibility",
  "app/(dashboard)/dashboard/jobs",
  "components/dashboard",
  "lib/tracking/api-schemas.ts",
  "lib/ai-visibility/api-schemas.ts",
  "lib/jobs/list.ts",
  "lib/tracking/ingest/event-schema.ts",
].flatMap(sources);

const LIMITS = [
  { name: "citations days", value: CITATIONS_DAYS.max, home: "lib/tracking/api-schemas.ts" },
  { name: "citations limit", value: CITATIONS_LIMIT.max, home: "lib/tracking/api-schemas.ts" },
  { name: "visibility days", value: VISIBILITY_DAYS.max, home: "lib/ai-visibility/api-schemas.ts" },
  { name: "events per batch", value: MAX_EVENTS_PER_BATCH, home: "lib/tracking/ingest/event-schema.ts" },
  { name: "jobs per page", value: JOBS_PAGE.max, home: "lib/jobs/list.ts" },
];

/** A bound written as a number: `max: 90`, `.max(90)`, `max={90}`, "at most 90", "above 90", "up to 90". */
const bound = (value: number) =>
  new RegExp(
    `\\b(max|maximum|at most|above|up to|below)\\b\\W{0,3}${value}\\b|\\[[^\\]]*\\b${value}\\]`,
    "i",
  );

describe("no limit written twice", () => {
  for (const limit of LIMITS) {
    test(`${limit.name} (${limit.value}) is written once, in ${limit.home}`, () => {
      const hits = EDGES.flatMap((file) =>
        readFileSync(path.join(ROOT, file), "utf8")
          .split("\n")
          .map((line, i) => ({ file, line: i + 1, text: line }))
          .filter((l) => bound(limit.value).test(l.text)),
      );
      expect(hits.filter((h) => h.file !== limit.home)).toEqual([]);
      // Declared in its home, once.
      const declared = readFileSync(path.join(ROOT, limit.home), "utf8").match(
        new RegExp(`(max: |= )${limit.value}\\b`, "g"),
      );
      expect(declared).toHaveLength(1);
    });
  }

  test("the check sees a restated bound", () => {
    expect(bound(90).test('    "Look-back window (default 30, max 90)",')).toBe(true);
    expect(bound(395).test("dayOptions={[7, 30, 90, 395]}")).toBe(true);
    expect(bound(200).test("  limit: z.number().max(200),")).toBe(true);
    expect(bound(90).test("  days: queryInt(CITATIONS_DAYS.min, CITATIONS_DAYS.max)")).toBe(false);
  });
});
