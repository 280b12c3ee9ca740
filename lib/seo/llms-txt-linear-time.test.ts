// An llms.txt is the site's to write: 1 MB of adversarial text in a heading or a link line is parsed in under a
// second. Timed on purpose: the heading pattern was quadratic on a long run of spaces.
import { performance } from "node:perf_hooks";
import { describe, expect, test } from "vitest";
import { ADVERSARIAL_KINDS, repeatTo } from "@/bench/analysis-inputs";
import { parseLlmsTxt } from "./llms-txt";
import { parseRobotsTxt } from "./robots";

const ONE_MB = 1024 * 1024;
const BUDGET_MS = 1000;

function elapsed(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

describe.each(Object.entries(ADVERSARIAL_KINDS))("1 MB of %s", (_kind, unit) => {
  const text = repeatTo(unit(), ONE_MB);

  test("parseLlmsTxt: as a section heading, a link and a stray title", () => {
    const file = `# Site\n## x${text}x\n- [a](https://example.com/ ${text}x\n- x${text}x\n# x${text}x\n`;
    expect(elapsed(() => parseLlmsTxt(file))).toBeLessThan(BUDGET_MS);
  });

  test("parseRobotsTxt", () => {
    expect(elapsed(() => parseRobotsTxt(`User-agent: *\nDisallow: /${text}x\n${text}x`))).toBeLessThan(
      BUDGET_MS,
    );
  });
});

test("a heading of 1 MB of spaces between words keeps its text", () => {
  const spaces = " ".repeat(ONE_MB);
  let parsed: ReturnType<typeof parseLlmsTxt> | undefined;
  expect(elapsed(() => (parsed = parseLlmsTxt(`# Site${spaces}name${spaces}#\n`)))).toBeLessThan(BUDGET_MS);
  expect(parsed?.model?.title).toBe(`Site${spaces}name`);
});
