import { describe, expect, test } from "vitest";
import { parseRobotsTxt, type Robots } from "./robots";

// Ported from Google's robots.txt parser tests (github.com/google/robotstxt, robots_test.cc,
// ID_UTF8ByteOrderMarkIsSkipped; Apache-2.0): a UTF-8 byte order mark, or any leading part of one, is skipped;
// a broken one makes the first line garbage; a BOM later in the file is part of its line.

/** Google's "valid directives": user-agent and rule lines it recognises, even out of place. */
function valid(robots: Robots): number {
  const inGroups = robots.groups.reduce((n, g) => n + g.userAgents.length + g.rules.length, 0);
  return inGroups + robots.issues.filter((i) => i.message.includes("before any user-agent")).length;
}

/** Google's "unknown directives": lines with no directive it knows. */
function unknown(robots: Robots): number {
  return robots.issues.filter((i) => /^(Unknown directive|No "key: value")/.test(i.message)).length;
}

const body = Buffer.from("User-Agent: foo\nAllow: /AnyValue\n");
const bytes = (...prefix: number[]) => Buffer.concat([Buffer.from(prefix), body]);

describe("robots.txt byte order marks (Google's cases)", () => {
  test.each([
    ["full BOM", bytes(0xef, 0xbb, 0xbf), 2, 0],
    ["partial BOM, two bytes", bytes(0xef, 0xbb), 2, 0],
    ["partial BOM, one byte", bytes(0xef), 2, 0],
    ["no BOM", bytes(), 2, 0],
    ["broken BOM: the first line is garbage", bytes(0xef, 0x11, 0xbf), 1, 1],
    [
      "BOM in the middle of the file",
      Buffer.concat([
        Buffer.from("User-Agent: foo\n"),
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from("Allow: /AnyValue\n"),
      ]),
      1,
      1,
    ],
  ])("%s", (_name, input, validCount, unknownCount) => {
    const robots = parseRobotsTxt(input);
    expect(valid(robots)).toBe(validCount);
    expect(unknown(robots)).toBe(unknownCount);
  });

  test("the rules after a partial BOM apply", () => {
    const robots = parseRobotsTxt(
      Buffer.from([0xef, 0xbb, ...Buffer.from("User-agent: *\nDisallow: /private\n")]),
    );
    expect(robots.groups[0]?.userAgents).toEqual(["*"]);
    expect(robots.groups[0]?.rules[0]?.pattern).toBe("/private");
  });

  test("decoded text: a BOM, or the replacement character a partial BOM decodes to, is dropped", () => {
    for (const prefix of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
      const text = new TextDecoder().decode(bytes(...prefix));
      const robots = parseRobotsTxt(text);
      expect(valid(robots)).toBe(2);
      expect(unknown(robots)).toBe(0);
    }
  });
});
