// A failed job's code is part of the contract a customer programs against: docs/api.md lists, under each tool,
// every code its jobs can end with. These tests hold the lists in lib/tools/failures.ts to the codes the code
// throws, and docs/api.md to the lists.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test, vi } from "vitest";
import { ERROR_CODES, JOB_FAILURE_CODES, ToolError } from "@/lib/errors";
import { FetchError } from "@/lib/fetch";
import { describeFailure } from "@/lib/jobs/tool-source";
import { TOOL_NAMES, type ToolName } from "@/lib/tools/catalog";
import { FAILURE_MEANINGS, failureCodesOf, RUNNER_FAILURE_CODES } from "@/lib/tools/failures";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");

const sourcesIn = (dir: string) =>
  readdirSync(path.join(ROOT, dir))
    .filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => `${dir}/${f}`);

/** The codes a source throws or fails a job with as literals: `new XError("CODE"`, `code: "CODE"`. */
function literalCodes(text: string): string[] {
  const found = [
    ...text.matchAll(/new \w*Error\(\s*"([A-Z][A-Z0-9_]+)"/g),
    ...text.matchAll(/\bcode:\s*"([A-Z][A-Z0-9_]+)"/g),
  ].map((m) => m[1]!);
  return [...new Set(found)].filter((c) => !(ERROR_CODES as readonly string[]).includes(c));
}

/**
 * A tool's folder, the sibling tool folders it imports from (`../audits/…`) and the files of lib/tools/shared it
 * runs (`../shared/run-audit`, and what those import in turn).
 */
function toolSources(tool: ToolName): string[] {
  const own = sourcesIn(`lib/tools/${tool}`);
  const siblings = new Set<string>();
  const shared = new Set<string>();
  const followShared = (name: string) => {
    const file = `lib/tools/shared/${name}.ts`;
    if (shared.has(file)) return;
    shared.add(file);
    for (const m of read(file).matchAll(/from "\.\/([a-z0-9-]+)"/g)) followShared(m[1]!);
  };
  for (const file of own) {
    for (const m of read(file).matchAll(/from "\.\.\/([a-z0-9-]+)\/([a-z0-9-]+)"/g)) {
      if (m[1] === "shared") followShared(m[2]!);
      else siblings.add(m[1]!);
    }
  }
  return [...own, ...[...siblings].flatMap((dir) => sourcesIn(`lib/tools/${dir}`)), ...shared];
}

/** docs/api.md's section of `POST /<tool>`, up to the next heading. */
function apiSection(doc: string, tool: string): string {
  const start = doc.indexOf(`\n### POST /${tool}\n`);
  expect(start, `docs/api.md has a section for POST /${tool}`).toBeGreaterThan(-1);
  const end = doc.indexOf("\n#", start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

describe("job failure codes", () => {
  test.each(TOOL_NAMES)("%s lists every code its folder fails a job with", (tool) => {
    const listed = failureCodesOf(tool) as string[];
    const thrown = toolSources(tool).flatMap((f) => literalCodes(read(f)));
    expect(thrown.filter((c) => !listed.includes(c))).toEqual([]);
  });

  test("the runner's own codes are the ones lib/jobs fails jobs with", () => {
    const thrown = [...new Set(sourcesIn("lib/jobs").flatMap((f) => literalCodes(read(f))))];
    expect(thrown.filter((c) => !(RUNNER_FAILURE_CODES as readonly string[]).includes(c))).toEqual([]);
    for (const code of RUNNER_FAILURE_CODES) expect(thrown, code).toContain(code);
  });

  test.each(TOOL_NAMES)("docs/api.md lists the failure codes of %s under its endpoint", (tool) => {
    const section = apiSection(read("docs/api.md"), tool);
    for (const code of failureCodesOf(tool)) expect(section, `${tool}: ${code}`).toContain(`\`${code}\``);
  });

  test("docs/api.md says what each code means", () => {
    const doc = read("docs/api.md");
    const table = doc.slice(doc.indexOf("## Job failure codes"));
    for (const [code, meaning] of Object.entries(FAILURE_MEANINGS)) {
      expect(table, code).toContain(`| \`${code}\` | ${meaning} |`);
    }
  });

  test("the literal reader finds thrown and failed codes, not request errors", () => {
    const text = [
      'throw new ToolError("NOT_HTML", "x");',
      'throw new KeywordResearchError(\n  "NO_TEXT", "x");',
      'await failJob(db, id, { code: "QUEUE_TIMEOUT", message: "x" });',
      'throw new AppError("VALIDATION_ERROR", "x");',
      'const c = "LOOKS_LIKE_A_CODE";',
    ].join("\n");
    expect(literalCodes(text).sort()).toEqual(["NOT_HTML", "NO_TEXT", "QUEUE_TIMEOUT"]);
  });

  test("every code of the closed list has a meaning, and the lists use only codes of it", () => {
    expect(Object.keys(FAILURE_MEANINGS).sort()).toEqual([...JOB_FAILURE_CODES].sort());
    for (const tool of TOOL_NAMES) {
      for (const code of failureCodesOf(tool)) expect(JOB_FAILURE_CODES, code).toContain(code);
    }
  });
});

describe("a job's failure, as the runner records it", () => {
  const job = (tool: string) => ({ id: "00000000-0000-4000-8000-000000000000", tool });
  const quiet = () => vi.spyOn(console, "error").mockImplementation(() => {});

  test("a code the tool declares is kept with its message", () => {
    expect(describeFailure(new ToolError("NOT_HTML", "Not a page."), job("audits"))).toEqual({
      code: "NOT_HTML",
      message: "Not a page.",
    });
    expect(describeFailure(new FetchError("DNS_ERROR", "No such host."), job("llms-txt"))).toEqual({
      code: "DNS_ERROR",
      message: "No such host.",
    });
    expect(describeFailure(new ToolError("TIMEOUT", "Too slow."), job("serp")).code).toBe("TIMEOUT");
  });

  test("a tool that ends with a code outside its list fails with TOOL_FAILED, and the log names it", () => {
    const log = quiet();
    const failure = describeFailure(new ToolError("NOT_HTML", "Not a page."), job("serp"));
    expect(failure.code).toBe("TOOL_FAILED");
    expect(failure.message).not.toContain("Not a page");
    expect(String(log.mock.calls[0]?.[0])).toMatch(/serp ended with NOT_HTML/);
    log.mockRestore();
  });

  test("an unexpected error is TOOL_FAILED without its text", () => {
    const log = quiet();
    const failure = describeFailure(new Error("/srv/app/secret.ts exploded"), job("audits"));
    expect(failure.code).toBe("TOOL_FAILED");
    expect(failure.message).not.toContain("/srv/app");
    log.mockRestore();
  });
});
