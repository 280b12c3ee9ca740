/**
 * Security headers scored the way Mozilla's HTTP Observatory does: start at 100, apply each test's
 * modifier, award bonuses only when the score before bonuses is at least 90, then map to a letter grade.
 * Modifiers follow the Observatory's published scoring table; Permissions-Policy (not scored by the
 * Observatory) is our addition at -5 when missing, and "preloaded" HSTS is judged from the header's
 * preload-list requirements because the Chromium list itself cannot be consulted offline.
 */
import { clip, headerValues } from "./check";
import { checkCsp, checkFrameOptions, collectCspPolicies } from "./csp";
import { checkCookies } from "./security-cookies";
import { createSecurityTest, type SecurityTest, showHeader } from "./security-test";
import type { ParsedPage } from "./types";

export type { SecurityTest } from "./security-test";

export const GRADES = ["A+", "A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "D-", "F"] as const;
export type Grade = (typeof GRADES)[number];

export interface SecurityReport {
  /** Observatory-style score: 0 or more; above 100 with bonuses. */
  score: number;
  grade: Grade;
  tests: SecurityTest[];
}

const SIX_MONTHS = 15_768_000;
const ONE_YEAR = 31_536_000;

const GRADE_FLOORS: Array<[number, Grade]> = [
  [100, "A+"],
  [90, "A"],
  [85, "A-"],
  [80, "B+"],
  [70, "B"],
  [65, "B-"],
  [60, "C+"],
  [50, "C"],
  [45, "C-"],
  [40, "D+"],
  [30, "D"],
  [25, "D-"],
  [0, "F"],
];

export function gradeFor(score: number): Grade {
  return GRADE_FLOORS.find(([floor]) => score >= floor)?.[1] ?? "F";
}

export function analyzeSecurityHeaders(page: ParsedPage): SecurityReport {
  const policies = collectCspPolicies(page);
  const hsts = checkHsts(page);
  const tests = [
    hsts,
    checkCsp(page, policies),
    checkFrameOptions(page, policies),
    checkContentTypeOptions(page),
    checkReferrerPolicy(page),
    checkPermissionsPolicy(page),
    checkCookies(page, hsts.scoreModifier >= 0),
  ];
  const penalties = tests.reduce((sum, t) => sum + Math.min(0, t.scoreModifier), 0);
  const bonuses = tests.reduce((sum, t) => sum + Math.max(0, t.scoreModifier), 0);
  const base = 100 + penalties;
  const score = Math.max(0, base >= 90 ? base + bonuses : base);
  return { score, grade: gradeFor(score), tests };
}

function checkHsts(page: ParsedPage): SecurityTest {
  const values = headerValues(page.headers, "strict-transport-security");
  const evidence = showHeader("strict-transport-security", values);
  if (page.url.protocol !== "https:") {
    return createSecurityTest(
      "hsts",
      "fail",
      -20,
      "The page is served over plain HTTP, where browsers ignore HSTS. Serve it over HTTPS, redirect HTTP to HTTPS and send Strict-Transport-Security from the HTTPS response.",
      evidence,
    );
  }
  const first = values[0];
  if (first === undefined) {
    return createSecurityTest(
      "hsts",
      "fail",
      -20,
      "Strict-Transport-Security is missing. Add `Strict-Transport-Security: max-age=63072000; includeSubDomains` so browsers refuse plain-HTTP connections.",
      evidence,
    );
  }
  const parsed = parseHsts(first);
  if (!parsed) {
    return createSecurityTest(
      "hsts",
      "fail",
      -20,
      "Strict-Transport-Security is malformed (it needs exactly one numeric max-age); browsers ignore it. Fix the header syntax.",
      evidence,
    );
  }
  if (parsed.maxAge === 0) {
    return createSecurityTest(
      "hsts",
      "fail",
      -20,
      "Strict-Transport-Security has max-age=0, which switches HSTS off. Set max-age to at least 15768000 (six months).",
      evidence,
    );
  }
  if (parsed.maxAge < SIX_MONTHS) {
    return createSecurityTest(
      "hsts",
      "warn",
      -10,
      `HSTS max-age is ${parsed.maxAge} seconds, under six months. Raise it to at least 15768000, ideally 63072000.`,
      evidence,
    );
  }
  if (parsed.includeSubDomains && parsed.preload && parsed.maxAge >= ONE_YEAR) {
    return createSecurityTest(
      "hsts",
      "pass",
      5,
      "HSTS is set for at least a year with includeSubDomains and preload, meeting the browser preload list's requirements.",
      evidence,
    );
  }
  const missing = [!parsed.includeSubDomains && "includeSubDomains", !parsed.preload && "preload"].filter(
    Boolean,
  );
  return createSecurityTest(
    "hsts",
    "pass",
    0,
    `HSTS is set for at least six months. Adding ${missing.join(" and ")} (with max-age ≥ 1 year) would qualify for the preload list.`,
    evidence,
  );
}

export function parseHsts(
  value: string,
): { maxAge: number; includeSubDomains: boolean; preload: boolean } | undefined {
  const seen = new Set<string>();
  let maxAge: number | undefined;
  for (const raw of value.split(";")) {
    const part = raw.trim();
    if (!part) continue;
    const [nameRaw = "", ...rest] = part.split("=");
    const name = nameRaw.trim().toLowerCase();
    if (seen.has(name)) return undefined;
    seen.add(name);
    if (name === "max-age") {
      const v = rest
        .join("=")
        .trim()
        .replace(/^"(.*)"$/, "$1");
      if (!/^\d+$/.test(v)) return undefined;
      maxAge = Number(v);
    }
  }
  if (maxAge === undefined) return undefined;
  return { maxAge, includeSubDomains: seen.has("includesubdomains"), preload: seen.has("preload") };
}

function checkContentTypeOptions(page: ParsedPage): SecurityTest {
  const values = headerValues(page.headers, "x-content-type-options");
  const evidence = showHeader("x-content-type-options", values);
  const first = values[0]?.trim().toLowerCase();
  if (first === "nosniff")
    return createSecurityTest(
      "x-content-type-options",
      "pass",
      0,
      "X-Content-Type-Options is nosniff.",
      evidence,
    );
  if (first === undefined) {
    return createSecurityTest(
      "x-content-type-options",
      "warn",
      -5,
      "X-Content-Type-Options is missing. Add `X-Content-Type-Options: nosniff` so browsers do not guess content types.",
      evidence,
    );
  }
  return createSecurityTest(
    "x-content-type-options",
    "warn",
    -5,
    "X-Content-Type-Options has an invalid value; the only valid one is nosniff.",
    evidence,
  );
}

const PRIVATE_REFERRER = new Set([
  "no-referrer",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
]);
const UNSAFE_REFERRER = new Set(["unsafe-url", "origin", "origin-when-cross-origin"]);
const ALL_REFERRER = new Set([...PRIVATE_REFERRER, ...UNSAFE_REFERRER, "no-referrer-when-downgrade"]);

function checkReferrerPolicy(page: ParsedPage): SecurityTest {
  const values = headerValues(page.headers, "referrer-policy");
  const meta = page.$('meta[name="referrer" i]').attr("content");
  const evidence = showHeader("referrer-policy", values);
  if (meta !== undefined) evidence.push(`<meta name="referrer" content="${clip(meta, 80)}">`);
  const tokens = [...values, ...(meta !== undefined ? [meta] : [])]
    .flatMap((v) => v.split(","))
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  if (tokens.length === 0) {
    return createSecurityTest(
      "referrer-policy",
      "warn",
      0,
      "No Referrer-Policy. Browsers default to strict-origin-when-cross-origin, but set `Referrer-Policy: strict-origin-when-cross-origin` explicitly to earn the bonus.",
      evidence,
    );
  }
  // Browsers apply the last policy they understand, which allows fallbacks for old browsers.
  const policy = tokens.filter((t) => ALL_REFERRER.has(t)).at(-1);
  if (!policy)
    return createSecurityTest(
      "referrer-policy",
      "warn",
      -5,
      "Referrer-Policy has no valid value and is ignored.",
      evidence,
    );
  if (PRIVATE_REFERRER.has(policy))
    return createSecurityTest(
      "referrer-policy",
      "pass",
      5,
      `Referrer-Policy is ${policy}, which keeps full URLs private.`,
      evidence,
    );
  if (policy === "no-referrer-when-downgrade") {
    return createSecurityTest(
      "referrer-policy",
      "warn",
      0,
      "Referrer-Policy no-referrer-when-downgrade sends full URLs (with paths and queries) to every HTTPS site. Use strict-origin-when-cross-origin.",
      evidence,
    );
  }
  return createSecurityTest(
    "referrer-policy",
    "warn",
    -5,
    `Referrer-Policy ${policy} leaks page URLs to other sites. Use strict-origin-when-cross-origin.`,
    evidence,
  );
}

function checkPermissionsPolicy(page: ParsedPage): SecurityTest {
  const values = headerValues(page.headers, "permissions-policy");
  const legacy = headerValues(page.headers, "feature-policy");
  const evidence = [
    ...showHeader("permissions-policy", values),
    ...(legacy.length ? showHeader("feature-policy", legacy) : []),
  ];
  if (values.length === 0) {
    const message = legacy.length
      ? "Only the superseded Feature-Policy header is sent. Replace it with Permissions-Policy, e.g. `camera=(), microphone=(), geolocation=()`."
      : "No Permissions-Policy. Disable browser features the page does not use, e.g. `Permissions-Policy: camera=(), microphone=(), geolocation=()`.";
    return createSecurityTest("permissions-policy", "warn", -5, message, evidence);
  }
  const entries = values
    .flatMap((v) => v.split(","))
    .map((e) => e.trim())
    .filter(Boolean);
  const valid = entries.filter((e) => /^[a-z][a-z0-9-]*=(\*|\(.*\)|self|[a-z"])/i.test(e));
  if (valid.length === 0) {
    return createSecurityTest(
      "permissions-policy",
      "warn",
      -5,
      "Permissions-Policy is malformed (expected `feature=(allowlist)` entries) and is ignored.",
      evidence,
    );
  }
  return createSecurityTest(
    "permissions-policy",
    "pass",
    0,
    `Permissions-Policy restricts ${valid.length} browser feature${valid.length === 1 ? "" : "s"}.`,
    evidence,
  );
}
