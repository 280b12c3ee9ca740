// llms.txt and robots.txt are the site's to write: 1 MB of adversarial text is parsed in under a second of CPU. Timed
// on purpose: the llms.txt heading pattern was quadratic on a long run of spaces, robots.txt matching on runs of `*`.
import { describe, expect, test } from "vitest";
import { ADVERSARIAL_KINDS, cpuTimeMs, repeatTo } from "@/bench/analysis-inputs";
import { parseLlmsTxt } from "./llms-txt";
import { matchRobots, parseRobotsTxt, ROBOTS_MAX_BYTES, ROBOTS_MAX_LINE_BYTES } from "./robots";

const ONE_MB = 1024 * 1024;
const BUDGET_MS = 1000;

// CPU time, not wall time: the bound is on the work done, whatever else the machine is running.
const elapsed = cpuTimeMs;

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

test("matching a URL against a robots.txt of 500 KB of wildcards", () => {
  // Lines are read up to ROBOTS_MAX_LINE_BYTES, so 500 KB of wildcards is some thirty rules of full length.
  const rules = (pattern: string) => {
    const line = `Disallow: ${pattern}\n`;
    expect(line.length).toBeLessThanOrEqual(ROBOTS_MAX_LINE_BYTES);
    return parseRobotsTxt(`User-agent: *\n${line.repeat(Math.floor(ROBOTS_MAX_BYTES / line.length) - 1)}`);
  };
  const path = `https://example.com/${"a".repeat(2000)}`;
  const wildcards = rules(`/${"*a".repeat((ROBOTS_MAX_LINE_BYTES - 20) / 2)}b`);
  const stars = rules(`/${"*".repeat(ROBOTS_MAX_LINE_BYTES - 20)}x`);
  expect(wildcards.truncated || stars.truncated).toBe(false);
  const ruleBytes = wildcards.groups[0]!.rules.reduce((n, r) => n + r.pattern.length, 0);
  expect(ruleBytes).toBeGreaterThan(ROBOTS_MAX_BYTES * 0.9);
  let results: boolean[] = [];
  const ms = elapsed(() => {
    results = [wildcards, stars].map((robots) => matchRobots(robots, "Googlebot", path).allowed);
  });
  expect(ms).toBeLessThan(BUDGET_MS);
  expect(results).toEqual([true, true]);
  expect(matchRobots(rules("/*a*a$"), "Googlebot", path).allowed).toBe(false);
});
