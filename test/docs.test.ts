// The documentation stays true to the code: each test fails when the code grows something the docs do not name,
// or when the README grows back into a diary. docs/api.md has its own tests (test/openapi/api-docs.test.ts,
// test/tools/failures.test.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { LOG_FORMATS } from "@/lib/tracking/ingest/log-formats";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");
const docs = () =>
  readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);

describe("README.md", () => {
  test("is a page a newcomer reads in minutes: at most 300 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(300);
  });

  test("links every document in docs/", () => {
    const readme = read("README.md");
    for (const doc of docs()) expect(readme, doc).toContain(`](${doc})`);
  });
});

describe("docs/architecture.md", () => {
  test("names every folder of lib/", () => {
    const doc = read("docs/architecture.md");
    const folders = readdirSync(path.join(ROOT, "lib")).filter((f) =>
      statSync(path.join(ROOT, "lib", f)).isDirectory(),
    );
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((f) => !doc.includes(`lib/${f}`))).toEqual([]);
  });
});

describe("operators' settings", () => {
  test("every variable of .env.example is explained in the docs", () => {
    const listed = [...read(".env.example").matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(50);
    const text = ["README.md", ...docs()].map(read).join("\n");
    expect(listed.filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
  });
});

describe("docs/tracking.md", () => {
  test("names every access-log format the upload accepts", () => {
    const doc = read("docs/tracking.md");
    expect(LOG_FORMATS.filter((f) => !doc.includes(`\`${f}\``))).toEqual([]);
  });
});

describe("measurements live in docs/benchmarks.md", () => {
  // A date in words (a month and a year, or a day and a month) marks a measurement or a story; history is what
  // git is for. The samples below build their dates from parts, so this file passes its own test.
  const MONTHS = ["Nov", "Dec", "Jan", "Feb", "Mar"].join("|");
  const DATED = new RegExp(`(?:${MONTHS}) 20[0-9]{2}|\\b[0-9]{1,2} (?:${MONTHS})[ ,]`);
  const TEXT = /\.(md|ts|tsx|mjs|js|json|sql|sh|css|txt)$/;

  function walk(rel: string): string[] {
    const abs = path.join(ROOT, rel);
    if (!statSync(abs).isDirectory()) return TEXT.test(rel) ? [rel] : [];
    return readdirSync(abs)
      .filter((name) => name !== "node_modules" && !name.startsWith("."))
      .flatMap((name) => walk(`${rel}/${name}`));
  }

  test("no dated figures in the README, the code, the tests or the docs other than benchmarks.md", () => {
    const files = [
      "README.md",
      ...["lib", "app", "components", "scripts", "bench", "test", "docs"].flatMap(walk),
    ];
    const dated = files
      .filter((f) => f !== "docs/benchmarks.md")
      .flatMap((f) =>
        read(f)
          .split("\n")
          .map((line, i) => (DATED.test(line) ? `${f}:${i + 1}: ${line.trim()}` : null))
          .filter((hit): hit is string => hit !== null),
      );
    expect(dated).toEqual([]);
  });

  test("the date pattern finds the forms a diary uses", () => {
    const [nov, dec] = ["Nov", "Dec"];
    expect(DATED.test(`measured 23 ${nov} 2026 on 2 cores`)).toBe(true);
    expect(DATED.test(`the 27 ${nov}, later runs`)).toBe(true);
    expect(DATED.test(`in ${dec} 2025`)).toBe(true);
    expect(DATED.test("timestamp 2026-11-21T10:00:00Z")).toBe(false);
    expect(DATED.test("100 Novices")).toBe(false);
  });
});
