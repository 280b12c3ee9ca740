/**
 * Security headers graded by the MDN HTTP Observatory's rules (ported in ./observatory.ts, release v1.6.3):
 * start at 100, add each test's modifier, count bonuses only when the penalties alone leave at least 90,
 * then map to the Observatory's letter grade. Each test carries the Observatory's result name. What one
 * fetched response cannot show is listed in `notEvaluated` and scores 0 (see lib/tools/audits/SCORING.md).
 * Permissions-Policy is our addition, reported but not scored (the Observatory does not score it).
 */
import { clip, headerValues } from "./check";
import {
  contentSecurityPolicyTest,
  cookiesTest,
  crossOriginResourcePolicyTest,
  type Expectation,
  getGradeForScore,
  getScoreModifier,
  httpEquivHeaders,
  type ObservatoryInput,
  type RouteHop,
  redirectionTest,
  referrerPolicyTest,
  SCORE_TABLE,
  scoreModifiers,
  strictTransportSecurityTest,
  subresourceIntegrityTest,
  type TestOutput,
  xContentTypeOptionsTest,
  xFrameOptionsTest,
} from "./observatory";
import { createSecurityTest, type SecurityTest, showHeader } from "./security-test";
import type { CheckStatus, ParsedPage } from "./types";

export const GRADES = ["A+", "A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "D-", "F"] as const;
export type Grade = (typeof GRADES)[number];

interface NotEvaluated {
  /** The Observatory's test name. */
  test: string;
  reason: string;
}

export interface SecurityReport {
  /** Observatory score: 0 or more; above 100 with bonuses. */
  score: number;
  grade: Grade;
  tests: SecurityTest[];
  /** Observatory tests one fetched response cannot show; they add 0 to the score. */
  notEvaluated: NotEvaluated[];
}

export function gradeFor(score: number): Grade {
  return scoreGrade(score);
}

function scoreGrade(score: number): Grade {
  return getGradeForScore(score).grade as Grade;
}

export interface SecurityContext {
  /** The URL asked for; the redirection test runs only when it is http://. */
  requestedUrl?: string;
  /** The redirects followed from requestedUrl to the page. */
  redirects?: { url: string; status: number }[];
  /** The page's status code. */
  status?: number;
}

/** The redirect route from an http:// request to the page, or undefined when the request was not http://. */
function httpRouteOf(page: ParsedPage, ctx: SecurityContext): RouteHop[] | undefined {
  if (!ctx.requestedUrl?.startsWith("http:")) return undefined;
  return [
    ...(ctx.redirects ?? []).map((r) => ({ url: new URL(r.url), status: r.status })),
    { url: page.url, status: ctx.status ?? 200 },
  ];
}

function statusOf(out: TestOutput): CheckStatus {
  const modifier = getScoreModifier(out.result);
  if (modifier <= -20) return "fail";
  if (modifier < 0) return "warn";
  return out.pass ? "pass" : "warn";
}

/**
 * Results the Observatory passes although a header is missing (it costs no points, the browser default is safe):
 * under "passed" they must not read as a failure, so they say what the default gives and what setting it adds.
 */
const PASSING_WORDS: Partial<Record<string, string>> = {
  "referrer-policy-not-implemented":
    "No Referrer-Policy header: browsers then apply strict-origin-when-cross-origin, which does not leak paths to other sites. Setting it explicitly also covers older browsers.",
  "corp-not-implemented":
    "No Cross-Origin-Resource-Policy header: other sites may embed this page's resources, the web's default. Set it to same-site if they should not.",
};

function messageOf(result: Expectation, extra: string[] = [], status?: CheckStatus): string {
  const passing = status === "pass" ? PASSING_WORDS[result] : undefined;
  if (passing) return [passing, ...extra].join(" ");
  const { description, recommendation } = SCORE_TABLE[result];
  return [description, recommendation, ...extra].filter(Boolean).join(" ");
}

function observatoryTest(
  id: string,
  out: TestOutput,
  evidence: string[],
  extra: string[] = [],
  status: CheckStatus = statusOf(out),
): SecurityTest {
  return {
    ...createSecurityTest(
      id,
      status,
      getScoreModifier(out.result),
      messageOf(out.result, extra, status),
      evidence,
    ),
    result: out.result,
  };
}

export function analyzeSecurityHeaders(page: ParsedPage, ctx: SecurityContext = {}): SecurityReport {
  const input: ObservatoryInput = {
    url: page.url,
    headers: page.headers,
    $: page.$,
    httpEquiv: httpEquivHeaders(page.$),
    httpRoute: httpRouteOf(page, ctx),
  };
  const show = (name: string) => showHeader(name, headerValues(page.headers, name));
  const metaCsp = (input.httpEquiv.get("content-security-policy") ?? []).map(
    (v) => `<meta http-equiv="Content-Security-Policy">: ${clip(v, 200)}`,
  );

  const hsts = strictTransportSecurityTest(input);
  const csp = contentSecurityPolicyTest(input);
  const cspNotes: string[] = [];
  if (csp.policy?.insecureBaseUri)
    cspNotes.push("Note: base-uri is unrestricted; set `base-uri 'self'` (not scored by the Observatory).");
  if (csp.policy?.insecureFormAction)
    cspNotes.push(
      "Note: form-action is unrestricted; set `form-action 'self'` (not scored by the Observatory).",
    );
  const xfo = xFrameOptionsTest(input);
  const xfoNotes =
    xfo.result === "x-frame-options-implemented-via-csp" && csp.policy && !csp.policy.antiClickjacking
      ? [
          "Note: frame-ancestors allows any origin (or is only in a <meta> tag), so framing is not actually restricted.",
        ]
      : [];
  const referrer = referrerPolicyTest(input);
  const referrerMeta = input.httpEquiv.get("referrer-policy") ?? [];
  const tests: SecurityTest[] = [
    observatoryTest(
      "hsts",
      hsts,
      show("strict-transport-security"),
      hsts.preload && hsts.result === "hsts-implemented-max-age-at-least-six-months"
        ? ["Whether the site is on the browsers' preload list is not checked (that list is not consulted)."]
        : [],
    ),
    observatoryTest(
      "csp",
      csp,
      [
        ...show("content-security-policy"),
        ...metaCsp,
        ...(csp.numPolicies ? [] : show("content-security-policy-report-only")),
      ],
      cspNotes,
    ),
    observatoryTest(
      "x-frame-options",
      xfo,
      [
        ...show("x-frame-options"),
        ...(csp.data?.["frame-ancestors"]
          ? [`frame-ancestors ${csp.data["frame-ancestors"].join(" ")}`]
          : []),
      ],
      xfoNotes,
      xfoNotes.length ? "warn" : statusOf(xfo),
    ),
    observatoryTest("x-content-type-options", xContentTypeOptionsTest(input), show("x-content-type-options")),
    observatoryTest("referrer-policy", referrer, [
      ...show("referrer-policy"),
      ...referrerMeta.map((m) => `<meta name="referrer" content="${clip(m, 80)}">`),
    ]),
    observatoryTest(
      "cross-origin-resource-policy",
      crossOriginResourcePolicyTest(input),
      show("cross-origin-resource-policy"),
    ),
    observatoryTest(
      "cookies",
      cookiesTest(input),
      (page.headers["set-cookie"] ?? []).map((v) => `set-cookie: ${clip(v, 160)}`),
    ),
  ];
  const sri = subresourceIntegrityTest(input);
  tests.push(
    observatoryTest(
      "subresource-integrity",
      sri,
      Object.entries(sri.data).map(
        ([src, d]) => `<script src="${clip(src, 120)}"${d.integrity ? " integrity" : ""}>`,
      ),
    ),
  );
  const notEvaluated: NotEvaluated[] = [
    {
      test: "cross-origin-resource-sharing",
      reason: "needs a request with an Origin header, which the audit does not send",
    },
  ];
  if (input.httpRoute) {
    const redirection = redirectionTest(input.httpRoute);
    tests.push(observatoryTest("redirection", redirection, redirection.route));
  } else {
    notEvaluated.push({
      test: "redirection",
      reason: "the audited URL is https://; the http:// version of the site was not requested",
    });
  }
  tests.push(checkPermissionsPolicy(page));

  const { score } = scoreModifiers(tests.map((t) => t.scoreModifier));
  return { score, grade: scoreGrade(score), tests, notEvaluated };
}

function checkPermissionsPolicy(page: ParsedPage): SecurityTest {
  const values = headerValues(page.headers, "permissions-policy");
  const legacy = headerValues(page.headers, "feature-policy");
  const evidence = [
    ...showHeader("permissions-policy", values),
    ...(legacy.length ? showHeader("feature-policy", legacy) : []),
  ];
  const test = (status: CheckStatus, message: string): SecurityTest => ({
    ...createSecurityTest("permissions-policy", status, 0, message, evidence),
    result: null,
  });
  const unscored = " (Not scored: the Observatory does not grade Permissions-Policy.)";
  if (values.length === 0) {
    return test(
      "warn",
      (legacy.length
        ? "Only the superseded Feature-Policy header is sent. Replace it with Permissions-Policy, e.g. `camera=(), microphone=(), geolocation=()`."
        : "No Permissions-Policy. Disable browser features the page does not use, e.g. `Permissions-Policy: camera=(), microphone=(), geolocation=()`.") +
        unscored,
    );
  }
  const entries = values
    .flatMap((v) => v.split(","))
    .map((e) => e.trim())
    .filter(Boolean);
  const valid = entries.filter((e) => /^[a-z][a-z0-9-]*=(\*|\(.*\)|self|[a-z"])/i.test(e));
  if (valid.length === 0) {
    return test(
      "warn",
      `Permissions-Policy is malformed (expected \`feature=(allowlist)\` entries) and is ignored.${unscored}`,
    );
  }
  return test(
    "pass",
    `Permissions-Policy restricts ${valid.length} browser feature${valid.length === 1 ? "" : "s"}.${unscored}`,
  );
}
