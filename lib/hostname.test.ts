import { describe, expect, test } from "vitest";
import { normalizeHostname } from "./hostname";

describe("normalizeHostname, a customer domain (the default)", () => {
  test.each([
    ["Example.com", "example.com"],
    ["example.com.", "example.com"],
    ["  example.com  ", "example.com"],
    ["https://Example.com/x?y", "example.com"],
    ["HTTPS://user@example.com:8080/", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["localhost", null],
    ["1.2.3.4", null],
    ["http://10.0.0.1/", null],
    ["example.com:8080", null],
    ["under_score.example", null],
    ["-bad.example", null],
    ["", null],
    [`${"a".repeat(64)}.com`, null],
  ])("%s → %s", (input, expected) => expect(normalizeHostname(input)).toBe(expected));
});

describe("normalizeHostname, an event's host (no URL, single labels allowed)", () => {
  const asEventHost = (input: string) => normalizeHostname(input, { acceptUrl: false, requireDomain: false });
  test.each([
    ["Example.COM", "example.com"],
    ["example.com.", "example.com"],
    ["localhost", "localhost"],
    ["under_score.example", null],
    ["", null],
    ["a b.com", null],
    ["https://example.com", null],
  ])("%s → %s", (input, expected) => expect(asEventHost(input)).toBe(expected));
});
