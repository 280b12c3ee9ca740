import { describe, expect, test } from "vitest";
import { parsePage } from "./page";
import { analyzeSecurityHeaders, gradeFor, type SecurityContext } from "./security-headers";
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

function analyze(
  headers: HeaderMap,
  url = "https://example.com/",
  html = "<html><body></body></html>",
  ctx: SecurityContext = {},
) {
  return analyzeSecurityHeaders(parsePage({ url, html, headers }), ctx);
}

function byId(report: ReturnType<typeof analyze>) {
  return Object.fromEntries(
    report.tests.map((t) => [t.id.replace("security.", ""), { result: t.result, mod: t.scoreModifier }]),
  );
}

describe("analyzeSecurityHeaders (MDN HTTP Observatory rules)", () => {
  test("a hardened response: every bonus counts, 100 + 10 + 5 + 5 + 5 = 125, A+", () => {
    const report = analyze(STRONG);
    expect(byId(report)).toEqual({
      hsts: { result: "hsts-implemented-max-age-at-least-six-months", mod: 0 },
      csp: { result: "csp-implemented-with-no-unsafe-default-src-none", mod: 10 },
      "x-frame-options": { result: "x-frame-options-implemented-via-csp", mod: 5 },
      "x-content-type-options": { result: "x-content-type-options-nosniff", mod: 0 },
      "referrer-policy": { result: "referrer-policy-private", mod: 5 },
      "cross-origin-resource-policy": { result: "corp-not-implemented", mod: 0 },
      cookies: { result: "cookies-secure-with-httponly-sessions-and-samesite", mod: 5 },
      "subresource-integrity": { result: "sri-not-implemented-but-no-scripts-loaded", mod: 0 },
      "permissions-policy": { result: null, mod: 0 },
    });
    expect(report.score).toBe(125);
    expect(report.grade).toBe("A+");
    expect(report.tests.every((t) => t.status === "pass")).toBe(true);
  });

  test("no headers at all: 100 − 20 (HSTS) − 25 (CSP) − 20 (framing) − 5 (nosniff) = 30, grade D", () => {
    const report = analyze({});
    expect(byId(report)).toMatchObject({
      hsts: { result: "hsts-not-implemented", mod: -20 },
      csp: { result: "csp-not-implemented", mod: -25 },
      "x-frame-options": { result: "x-frame-options-not-implemented", mod: -20 },
      "x-content-type-options": { result: "x-content-type-options-not-implemented", mod: -5 },
      "referrer-policy": { result: "referrer-policy-not-implemented", mod: 0 },
      "permissions-policy": { result: null, mod: 0 },
    });
    expect(report.score).toBe(30);
    expect(report.grade).toBe("D");
    const status = Object.fromEntries(report.tests.map((t) => [t.id, t.status]));
    expect(status).toMatchObject({
      "security.hsts": "fail",
      "security.csp": "fail",
      "security.x-content-type-options": "warn",
      "security.permissions-policy": "warn",
    });
  });

  test("bonuses are withheld when the penalties bring the score under 90", () => {
    // −10 (short HSTS) −5 (nosniff missing) = 85: the +10, +5, +5, +5 bonuses do not count.
    const report = analyze({
      ...STRONG,
      "strict-transport-security": ["max-age=3600"],
      "x-content-type-options": [],
    });
    expect(report.score).toBe(85);
    expect(report.grade).toBe("A-");
  });

  test("X-Frame-Options DENY earns +5 under the 2025 table, as frame-ancestors does", () => {
    expect(byId(analyze({ "x-frame-options": ["DENY"] }))["x-frame-options"]).toEqual({
      result: "x-frame-options-sameorigin-or-deny",
      mod: 5,
    });
  });

  test("images over http: in a CSP on an https page cost 10 (passive content)", () => {
    const report = analyze({ "content-security-policy": ["default-src 'self'; img-src http:"] });
    const csp = report.tests.find((t) => t.id === "security.csp");
    expect(csp).toMatchObject({
      result: "csp-implemented-with-insecure-scheme-in-passive-content-only",
      scoreModifier: -10,
      status: "warn",
    });
  });

  test("an unrestricted object-src makes the CSP unsafe; an unrestricted base-uri is reported, not scored", () => {
    const csp = analyze({ "content-security-policy": ["script-src 'self'"] }).tests.find(
      (t) => t.id === "security.csp",
    );
    expect(csp).toMatchObject({
      result: "csp-implemented-with-unsafe-inline",
      scoreModifier: -20,
      status: "fail",
    });
    expect(csp?.message).toMatch(/base-uri is unrestricted/);
  });

  test("HSTS on a page served over plain HTTP is not implemented", () => {
    const hsts = analyze(STRONG, "http://example.com/").tests.find((t) => t.id === "security.hsts");
    expect(hsts).toMatchObject({
      result: "hsts-not-implemented-no-https",
      status: "fail",
      scoreModifier: -20,
    });
  });

  test("a frame-ancestors only in <meta> earns the Observatory's +5 but is flagged as not restricting framing", () => {
    const html = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-ancestors 'none'"></head></html>`;
    const xfo = analyze({}, "https://example.com/", html).tests.find(
      (t) => t.id === "security.x-frame-options",
    );
    expect(xfo).toMatchObject({
      result: "x-frame-options-implemented-via-csp",
      scoreModifier: 5,
      status: "warn",
    });
    expect(xfo?.message).toMatch(/not actually restricted/);
  });

  test("the redirection test runs only when the audit started at http://", () => {
    const fromHttps = analyze(STRONG);
    expect(fromHttps.tests.some((t) => t.id === "security.redirection")).toBe(false);
    expect(fromHttps.notEvaluated.map((n) => n.test)).toEqual([
      "cross-origin-resource-sharing",
      "redirection",
    ]);

    const offHost = analyze(STRONG, "https://www.example.com/", undefined, {
      requestedUrl: "http://example.com/",
      redirects: [{ url: "http://example.com/", status: 301 }],
      status: 200,
    });
    expect(byId(offHost).redirection).toEqual({ result: "redirection-off-host-from-http", mod: -5 });
    expect(offHost.notEvaluated.map((n) => n.test)).toEqual(["cross-origin-resource-sharing"]);

    const stayed = analyze({}, "http://example.com/", undefined, { requestedUrl: "http://example.com/" });
    expect(byId(stayed).redirection).toEqual({ result: "redirection-missing", mod: -20 });
  });

  test("external scripts without integrity cost 5; over http they cost 50", () => {
    const https = `<html><head><script src="https://cdn.other.net/a.js"></script></head></html>`;
    const http = `<html><head><script src="http://cdn.other.net/a.js"></script></head></html>`;
    expect(byId(analyze({}, "https://example.com/", https))["subresource-integrity"]).toEqual({
      result: "sri-not-implemented-but-external-scripts-loaded-securely",
      mod: -5,
    });
    expect(byId(analyze({}, "https://example.com/", http))["subresource-integrity"]).toEqual({
      result: "sri-not-implemented-and-external-scripts-not-loaded-securely",
      mod: -50,
    });
  });

  test("CORP same-origin is a +10 bonus", () => {
    const report = analyze({ ...STRONG, "cross-origin-resource-policy": ["same-origin"] });
    expect(report.score).toBe(135);
  });

  test("Permissions-Policy is reported but never scored", () => {
    const t = analyze({ "feature-policy": ["camera 'none'"] }).tests.find(
      (x) => x.id === "security.permissions-policy",
    );
    expect(t).toMatchObject({ status: "warn", scoreModifier: 0, result: null });
    expect(t?.message).toMatch(/superseded/);
  });
});

test("gradeFor follows the Observatory's grade chart", () => {
  expect([135, 100, 99, 90, 89, 85, 80, 75, 70, 65, 60, 55, 50, 45, 40, 30, 25, 24, 0].map(gradeFor)).toEqual(
    ["A+", "A+", "A", "A", "A-", "A-", "B+", "B", "B", "B-", "C+", "C", "C", "C-", "D+", "D", "D-", "F", "F"],
  );
});
