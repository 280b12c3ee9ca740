import { describe, expect, test } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext", () => {
  test.each([
    "/dashboard",
    "/dashboard/keys?tab=legacy#new",
    "/invite/abc_DEF-123",
    "/login?next=%2Fdashboard",
  ])("keeps the same-origin path %s", (path) => {
    expect(safeNext(path)).toBe(path);
  });

  test.each([
    ["a tab after the slash", "/\t/evil.test"],
    ["an encoded tab", "/%09/evil.test"],
    ["a CR/LF", "/\r\n/evil.test"],
    ["an encoded CR/LF", "/%0d%0a/evil.test"],
    ["a header injection", "/dashboard\r\nSet-Cookie: x=1"],
    ["a NUL", "/dash\u0000board"],
    ["two slashes", "//evil.test"],
    ["three slashes", "///evil.test"],
    ["a backslash", "/\\evil.test"],
    ["two backslashes", "/\\\\evil.test"],
    ["an encoded slash", "/%2F/evil.test"],
    ["an encoded slash, lower case", "/%2f%2fevil.test"],
    ["an encoded backslash", "/%5Cevil.test"],
    ["a scheme without slashes", "https:evil.test"],
    ["an absolute URL", "https://evil.test/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "evil.test"],
    ["user info", "/@evil.test"],
    ["empty", ""],
    ["not a string", 42],
    ["too long", `/${"a".repeat(3000)}`],
  ])("refuses %s", (_name, value) => {
    const next = safeNext(value);
    // Whatever the browser makes of the answer, it stays on this site.
    expect(new URL(next, "https://app.example").origin).toBe("https://app.example");
    if (value !== "/@evil.test") expect(next).toBe("/dashboard");
  });
});
