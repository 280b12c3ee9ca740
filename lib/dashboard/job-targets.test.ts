import { expect, test } from "vitest";
import { jobTarget } from "./job-targets";

test.each([
  [{ url: "https://example.com/a/b" }, "https://example.com/a/b"],
  [{ target: "example.com", includeHistory: true }, "example.com"],
  [{ prompt: "best crm", domain: "acme.com" }, "acme.com"],
  [{ keyword: "cold brew" }, "cold brew"],
  [{ keywords: ["a", "b", "c"] }, "a and 2 more"],
  [{ domains: ["one.com"] }, "one.com"],
  [{ prompt: "x".repeat(100) }, `${"x".repeat(79)}…`],
  [{}, null],
  [null, null],
])("%j → %s", (input, expected) => {
  expect(jobTarget(input)).toBe(expected);
});
