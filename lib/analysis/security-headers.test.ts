import { describe, expect, test } from "vitest";
import { parseCsp } from "./csp";
import { parsePage } from "./page";
import { parseSetCookie } from "./security-cookies";
import { analyzeSecurityHeaders, gradeFor, parseHsts } from "./security-headers";
import type { HeaderMap } from "./types";

const STRONG: HeaderMap = {
  "strict-transport-security": ["max-age=63072000; includeSubDomains; preload"],
  "content-security-policy": [
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; frame-ancestors 'none'",
  ],
  "x-content-type-options": ["nosniff"],
  "referrer-policy": ["strict-origin-when-cross-origin"],
  "permissions-policy": ["camera=(), microphone=(), geolocation=()"],
  "set-cookie": ["session_id=abc; Path=/; Secure; HttpOnly; SameSite=Lax"],
};

function analyze(headers: HeaderMap, url = "https://example.com/", html = "<html><body></body></html>") {
  return analyzeSecurityHeaders(parsePage({ url, html, headers }));
}

function byId(report: ReturnType<typeof analyze>) {
  return Object.fromEntries(
    report.tests.map((t) => [t.id.replace("security.", ""), { status: t.status, mod: t.scoreModifier }]),
  );
}

describe("analyzeSecurityHeaders", () => {
  test("a fully hardened response scores above 100 with every bonus and grades A+", () => {
    const report = analyze(STRONG);
    expect(byId(report)).toEqual({
      hsts: { status: "pass", mod: 5 },
      csp: { status: "pass", mod: 10 },
      "x-frame-options": { status: "pass", mod: 5 },
      "x-content-type-options": { status: "pass", mod: 0 },
      "referrer-policy": { status: "pass", mod: 5 },
      "permissions-policy": { status: "pass", mod: 0 },
      cookies: { status: "pass", mod: 5 },
    });
    expect(report.score).toBe(130);
    expect(report.grade).toBe("A+");
  });

  test("no headers at all: 100 − 20 (HSTS) − 25 (CSP) − 20 (framing) − 5 − 5 = 25, grade D-", () => {
    const report = analyze({});
    expect(byId(report)).toEqual({
      hsts: { status: "fail", mod: -20 },
      csp: { status: "fail", mod: -25 },
      "x-frame-options": { status: "fail", mod: -20 },
      "x-content-type-options": { status: "warn", mod: -5 },
      "referrer-policy": { status: "warn", mod: 0 },
      "permissions-policy": { status: "warn", mod: -5 },
      cookies: { status: "pass", mod: 0 },
    });
    expect(report.score).toBe(25);
    expect(report.grade).toBe("D-");
  });

  test("bonuses are withheld when deductions bring the score under 90", () => {
    // -10 (short HSTS) -5 (nosniff missing) = 85 → the +10 CSP, +5 framing, +5 referrer bonuses do not apply.
    const report = analyze({
      ...STRONG,
      "strict-transport-security": ["max-age=3600"],
      "x-content-type-options": [],
    });
    expect(report.score).toBe(85);
    expect(report.grade).toBe("A-");
  });

  test("HSTS is ignored on a plain-HTTP page even when the header is sent", () => {
    const report = analyze(STRONG, "http://example.com/");
    const hsts = report.tests.find((t) => t.id === "security.hsts");
    expect(hsts?.status).toBe("fail");
    expect(hsts?.message).toMatch(/plain HTTP/);
  });

  test.each([
    ["max-age=31536000", "pass", 0],
    ["max-age=15768000; includeSubDomains", "pass", 0],
    ["max-age=86400", "warn", -10],
    ["max-age=0", "fail", -20],
    ["includeSubDomains", "fail", -20],
    ["max-age=abc", "fail", -20],
    ["max-age=1; max-age=2", "fail", -20],
    ['max-age="63072000"; includeSubDomains; preload', "pass", 5],
  ])("HSTS %s → %s (%i)", (value, status, mod) => {
    expect(byId(analyze({ "strict-transport-security": [value] })).hsts).toEqual({ status, mod });
  });

  test.each([
    ["script-src 'self' 'unsafe-inline'", "fail", -20],
    ["script-src 'self' 'unsafe-inline' 'nonce-abc123'", "pass", 5],
    ["default-src 'self' 'unsafe-inline'", "fail", -20],
    ["img-src 'self'", "fail", -20],
    ["script-src *", "fail", -20],
    ["script-src 'self' http://cdn.example.com", "fail", -20],
    ["script-src 'self' 'unsafe-eval'", "warn", -10],
    ["default-src 'self'; style-src 'self' 'unsafe-inline'", "pass", 0],
    ["default-src 'self'", "pass", 5],
    ["default-src 'none'; script-src 'self'", "pass", 10],
    ["nonsense", "fail", -25],
  ])("CSP %s → %s (%i)", (value, status, mod) => {
    expect(byId(analyze({ "content-security-policy": [value] })).csp).toEqual({ status, mod });
  });

  test("with two policies a weakness counts only if both have it", () => {
    const report = analyze({
      "content-security-policy": ["script-src 'self' 'unsafe-inline', script-src 'self'"],
    });
    expect(byId(report).csp).toEqual({ status: "pass", mod: 5 });
  });

  test("a report-only policy enforces nothing", () => {
    const report = analyze({ "content-security-policy-report-only": ["default-src 'self'"] });
    const csp = report.tests.find((t) => t.id === "security.csp");
    expect(csp?.status).toBe("fail");
    expect(csp?.message).toMatch(/Report-Only/);
  });

  test("a <meta> CSP counts for scripts but its frame-ancestors does not", () => {
    const html = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-ancestors 'none'"></head></html>`;
    const ids = byId(analyze({}, "https://example.com/", html));
    expect(ids.csp).toEqual({ status: "pass", mod: 5 });
    expect(ids["x-frame-options"]).toEqual({ status: "fail", mod: -20 });
  });

  test.each([
    [{ "x-frame-options": ["DENY"] }, "pass", 0],
    [{ "x-frame-options": ["sameorigin"] }, "pass", 0],
    [{ "x-frame-options": ["ALLOW-FROM https://a.example"] }, "warn", 0],
    [{ "x-frame-options": ["maybe"] }, "fail", -20],
    [{ "content-security-policy": ["frame-ancestors *"] }, "fail", -20],
    [{ "content-security-policy": ["frame-ancestors 'self'"] }, "pass", 5],
  ] as const)("framing %o → %s", (headers, status, mod) => {
    expect(byId(analyze(headers as unknown as HeaderMap))["x-frame-options"]).toEqual({ status, mod });
  });

  test.each([
    ["no-referrer", "pass", 5],
    ["unsafe-url", "warn", -5],
    ["no-referrer-when-downgrade", "warn", 0],
    ["bogus", "warn", -5],
    // The last understood value wins, so a fallback list ends with the preferred policy.
    ["no-referrer, strict-origin-when-cross-origin", "pass", 5],
    ["strict-origin, unsafe-url", "warn", -5],
  ])("Referrer-Policy %s → %s (%i)", (value, status, mod) => {
    expect(byId(analyze({ "referrer-policy": [value] }))["referrer-policy"]).toEqual({ status, mod });
  });

  test("Feature-Policy alone does not satisfy Permissions-Policy", () => {
    const t = analyze({ "feature-policy": ["camera 'none'"] }).tests.find(
      (x) => x.id === "security.permissions-policy",
    );
    expect(t?.status).toBe("warn");
    expect(t?.message).toMatch(/superseded/);
  });

  test.each([
    [["sessionid=1; Path=/"], false, "fail", -40],
    [["sessionid=1; Path=/"], true, "warn", -10],
    [["sessionid=1; Secure"], true, "fail", -30],
    [["theme=dark"], false, "fail", -20],
    [["theme=dark"], true, "warn", -5],
    [["theme=dark; Secure; SameSite=Sideways"], true, "fail", -20],
    [["theme=dark; Secure; SameSite=None"], true, "pass", 5],
    [["theme=dark; Secure"], true, "warn", 0],
    [["sid=1; Secure; HttpOnly; SameSite=Strict", "theme=dark; Secure; SameSite=Lax"], true, "pass", 5],
  ])("cookies %o (HSTS %s) → %s (%i)", (cookies, hsts, status, mod) => {
    const headers: HeaderMap = { "set-cookie": cookies };
    if (hsts) headers["strict-transport-security"] = ["max-age=31536000"];
    expect(byId(analyze(headers)).cookies).toEqual({ status, mod });
  });
});

test("gradeFor follows the Observatory's grade chart", () => {
  expect([135, 100, 99, 90, 89, 85, 80, 70, 65, 60, 50, 45, 40, 30, 25, 24, 0].map(gradeFor)).toEqual([
    "A+",
    "A+",
    "A",
    "A",
    "A-",
    "A-",
    "B+",
    "B",
    "B-",
    "C+",
    "C",
    "C-",
    "D+",
    "D",
    "D-",
    "F",
    "F",
  ]);
});

test("parsers keep their edge cases", () => {
  expect(parseHsts("max-age=10;;preload")).toEqual({ maxAge: 10, includeSubDomains: false, preload: true });
  expect(parseSetCookie("a=b=c; SECURE; samesite=LAX; HttpOnly")).toEqual({
    name: "a",
    secure: true,
    httpOnly: true,
    sameSite: "lax",
  });
  const csp = parseCsp("script-src 'SELF'; script-src *; img-src data:", "header");
  expect(csp.directives.get("script-src")).toEqual(["'self'"]);
  expect(csp.directives.get("img-src")).toEqual(["data:"]);
});
