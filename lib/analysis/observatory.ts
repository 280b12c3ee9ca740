/*
 * This Source Code Form is subject to the terms of the Mozilla Public License, v. 2.0. If a copy of the MPL
 * was not distributed with this file, You can obtain one at https://mozilla.org/MPL/2.0/.
 *
 * Ported to TypeScript from the MDN HTTP Observatory, https://github.com/mdn/mdn-http-observatory,
 * release v1.6.3 (commit 22e088df69a0d8734bd8f6ffad8a7ff97da8ddb8, algorithm version 5), files
 * src/analyzer/cspParser.js, src/analyzer/tests/{csp,x-frame-options,strict-transport-security,
 * x-content-type-options,referrer-policy,cross-origin-resource-policy,cookies,subresource-integrity,
 * redirection}.js, src/retriever/utils.js (parseHttpEquivHeaders), src/grader/{charts,grader}.js and the
 * scoring in src/scanner/index.js. Copyright Mozilla; licensed MPL-2.0. Changes: the tests read one fetched
 * response (see ObservatoryInput) instead of the Observatory's separate http/https/CORS requests, the HSTS
 * preload list is not consulted, cookies come from the response's Set-Cookie headers instead of a cookie
 * jar, HTML is read with cheerio instead of htmlparser2, and the score table carries plain-text messages.
 */
import type { CheerioAPI } from "cheerio";
import { parse as parseDomain } from "tldts";
import type { HeaderMap } from "./types";

/** Result names, exactly as the Observatory reports them. */
export const Expectation = {
  CspImplementedWithNoUnsafe: "csp-implemented-with-no-unsafe",
  CspImplementedWithNoUnsafeDefaultSrcNone: "csp-implemented-with-no-unsafe-default-src-none",
  CspImplementedWithUnsafeInlineInStyleSrcOnly: "csp-implemented-with-unsafe-inline-in-style-src-only",
  CspImplementedWithInsecureSchemeInPassiveContentOnly:
    "csp-implemented-with-insecure-scheme-in-passive-content-only",
  CspImplementedWithUnsafeInline: "csp-implemented-with-unsafe-inline",
  CspImplementedWithUnsafeEval: "csp-implemented-with-unsafe-eval",
  CspImplementedWithInsecureScheme: "csp-implemented-with-insecure-scheme",
  CspHeaderInvalid: "csp-header-invalid",
  CspNotImplemented: "csp-not-implemented",
  CspNotImplementedButReportingEnabled: "csp-not-implemented-but-reporting-enabled",
  CspImplementedButDuplicateDirectives: "csp-implemented-but-duplicate-directives",

  SriImplementedAndAllScriptsLoadedSecurely: "sri-implemented-and-all-scripts-loaded-securely",
  SriImplementedAndExternalScriptsLoadedSecurely: "sri-implemented-and-external-scripts-loaded-securely",
  SriImplementedButExternalScriptsNotLoadedSecurely:
    "sri-implemented-but-external-scripts-not-loaded-securely",
  SriNotImplementedAndExternalScriptsNotLoadedSecurely:
    "sri-not-implemented-and-external-scripts-not-loaded-securely",
  SriNotImplementedButAllScriptsLoadedFromSecureOrigin:
    "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
  SriNotImplementedButExternalScriptsLoadedSecurely:
    "sri-not-implemented-but-external-scripts-loaded-securely",
  SriNotImplementedButNoScriptsLoaded: "sri-not-implemented-but-no-scripts-loaded",
  SriNotImplementedResponseNotHtml: "sri-not-implemented-response-not-html",

  HstsHeaderInvalid: "hsts-header-invalid",
  HstsImplementedMaxAgeAtLeastSixMonths: "hsts-implemented-max-age-at-least-six-months",
  HstsImplementedMaxAgeLessThanSixMonths: "hsts-implemented-max-age-less-than-six-months",
  HstsNotImplementedNoHttps: "hsts-not-implemented-no-https",
  HstsNotImplemented: "hsts-not-implemented",

  CookiesAnticsrfWithoutSamesiteFlag: "cookies-anticsrf-without-samesite-flag",
  CookiesNotFound: "cookies-not-found",
  CookiesSamesiteFlagInvalid: "cookies-samesite-flag-invalid",
  CookiesSecureWithHttponlySessionsAndSamesite: "cookies-secure-with-httponly-sessions-and-samesite",
  CookiesSecureWithHttponlySessions: "cookies-secure-with-httponly-sessions",
  CookiesSessionWithoutHttponlyFlag: "cookies-session-without-httponly-flag",
  CookiesSessionWithoutSecureFlagButProtectedByHsts:
    "cookies-session-without-secure-flag-but-protected-by-hsts",
  CookiesSessionWithoutSecureFlag: "cookies-session-without-secure-flag",
  CookiesWithoutSecureFlagButProtectedByHsts: "cookies-without-secure-flag-but-protected-by-hsts",
  CookiesWithoutSecureFlag: "cookies-without-secure-flag",

  XFrameOptionsAllowFromOrigin: "x-frame-options-allow-from-origin",
  XFrameOptionsHeaderInvalid: "x-frame-options-header-invalid",
  XFrameOptionsImplementedViaCsp: "x-frame-options-implemented-via-csp",
  XFrameOptionsNotImplemented: "x-frame-options-not-implemented",
  XFrameOptionsSameoriginOrDeny: "x-frame-options-sameorigin-or-deny",

  RedirectionToHttps: "redirection-to-https",
  RedirectionNotToHttps: "redirection-not-to-https",
  RedirectionNotToHttpsOnInitialRedirection: "redirection-not-to-https-on-initial-redirection",
  RedirectionMissing: "redirection-missing",
  RedirectionOffHostFromHttp: "redirection-off-host-from-http",

  ReferrerPolicyPrivate: "referrer-policy-private",
  ReferrerPolicyUnsafe: "referrer-policy-unsafe",
  ReferrerPolicyNotImplemented: "referrer-policy-not-implemented",
  ReferrerPolicyHeaderInvalid: "referrer-policy-header-invalid",

  XContentTypeOptionsNosniff: "x-content-type-options-nosniff",
  XContentTypeOptionsNotImplemented: "x-content-type-options-not-implemented",
  XContentTypeOptionsHeaderInvalid: "x-content-type-options-header-invalid",

  CrossOriginResourcePolicyNotImplemented: "corp-not-implemented",
  CrossOriginResourcePolicyImplementedWithSameOrigin: "corp-implemented-with-same-origin",
  CrossOriginResourcePolicyImplementedWithSameSite: "corp-implemented-with-same-site",
  CrossOriginResourcePolicyImplementedWithCrossOrigin: "corp-implemented-with-cross-origin",
  CrossOriginResourcePolicyHeaderInvalid: "corp-header-invalid",
} as const;
export type Expectation = (typeof Expectation)[keyof typeof Expectation];
const E = Expectation;

interface ScoreEntry {
  modifier: number;
  /** What was found (after the Observatory's description). */
  description: string;
  /** What to do (after the Observatory's recommendation); empty when nothing is left to do. */
  recommendation: string;
}

/** The Observatory's SCORE_TABLE (src/grader/charts.js), as plain text. */
export const SCORE_TABLE: Record<Expectation, ScoreEntry> = {
  [E.CspImplementedWithNoUnsafeDefaultSrcNone]: {
    modifier: 10,
    description: "Content Security Policy (CSP) implemented with default-src 'none' and no 'unsafe'.",
    recommendation: "",
  },
  [E.CspImplementedWithNoUnsafe]: {
    modifier: 5,
    description: "Content Security Policy (CSP) implemented without 'unsafe-inline' or 'unsafe-eval'.",
    recommendation: "Set default-src to 'none' and allow what the page needs per directive.",
  },
  [E.CspImplementedWithUnsafeInlineInStyleSrcOnly]: {
    modifier: 0,
    description:
      "Content Security Policy (CSP) implemented with unsafe sources inside style-src ('unsafe-inline', data: or overly broad sources such as https:).",
    recommendation: "Lock down style-src, removing 'unsafe-inline', data: and broad sources.",
  },
  [E.CspImplementedWithInsecureSchemeInPassiveContentOnly]: {
    modifier: -10,
    description:
      "Content Security Policy (CSP) implemented, but the secure site allows images or media to be loaded over HTTP.",
    recommendation:
      "Load images and media over HTTPS and prevent their loading over HTTP with img-src and media-src (or default-src).",
  },
  [E.CspImplementedWithUnsafeEval]: {
    modifier: -10,
    description: "Content Security Policy (CSP) implemented, but allows 'unsafe-eval'.",
    recommendation: "Remove the use of eval() from the code, then remove 'unsafe-eval' from the policy.",
  },
  [E.CspImplementedWithUnsafeInline]: {
    modifier: -20,
    description:
      "Content Security Policy (CSP) implemented unsafely: 'unsafe-inline' or data: in script-src, overly broad sources such as https: or https://* in object-src or script-src, or object-src/script-src not restricted at all.",
    recommendation:
      "Remove 'unsafe-inline' and data: from script-src and broad sources from object-src and script-src, and make sure object-src and script-src (or default-src) are set.",
  },
  [E.CspImplementedWithInsecureScheme]: {
    modifier: -20,
    description: "Content Security Policy (CSP) implemented, but the secure site allows resources over HTTP.",
    recommendation: "Load resources over HTTPS and remove any http: or ftp: sources from the policy.",
  },
  [E.CspHeaderInvalid]: {
    modifier: -25,
    description:
      "The Content Security Policy (CSP) cannot be parsed (empty, a repeated directive, or 'strict-dynamic' without a nonce or hash).",
    recommendation: "Fix the policy's syntax; each directive may appear once per policy.",
  },
  [E.CspNotImplemented]: {
    modifier: -25,
    description: "Content Security Policy (CSP) header not implemented.",
    recommendation:
      "Add one that limits where scripts load from, e.g. `default-src 'self'; object-src 'none'; frame-ancestors 'self'`.",
  },
  [E.CspNotImplementedButReportingEnabled]: {
    modifier: -25,
    description: "Only Content-Security-Policy-Report-Only is sent, which enforces nothing.",
    recommendation: "Enforce the policy with Content-Security-Policy once its reports are clean.",
  },
  [E.CspImplementedButDuplicateDirectives]: {
    modifier: 0,
    description: "Content Security Policy (CSP) implemented, but it repeats report-uri or report-to.",
    recommendation: "Remove the duplicate directives.",
  },

  [E.CookiesSecureWithHttponlySessionsAndSamesite]: {
    modifier: 5,
    description: "All cookies use Secure, session cookies use HttpOnly, and every cookie sets SameSite.",
    recommendation: "",
  },
  [E.CookiesSecureWithHttponlySessions]: {
    modifier: 0,
    description: "All cookies use Secure and all session cookies use HttpOnly.",
    recommendation: "Set SameSite (Lax or Strict) on every cookie.",
  },
  [E.CookiesNotFound]: { modifier: 0, description: "No cookies detected.", recommendation: "" },
  [E.CookiesWithoutSecureFlagButProtectedByHsts]: {
    modifier: -5,
    description: "Cookies set without Secure, but transmission over HTTP is prevented by HSTS.",
    recommendation: "Add Secure.",
  },
  [E.CookiesSessionWithoutSecureFlagButProtectedByHsts]: {
    modifier: -10,
    description: "Session cookie set without Secure, but transmission over HTTP is prevented by HSTS.",
    recommendation: "Add Secure.",
  },
  [E.CookiesWithoutSecureFlag]: {
    modifier: -20,
    description: "Cookies set without Secure.",
    recommendation: "Add Secure and set up HSTS.",
  },
  [E.CookiesSamesiteFlagInvalid]: {
    modifier: -20,
    description: "Cookies use SameSite with an invalid value (or SameSite=None without Secure).",
    recommendation: "Use SameSite=Strict or Lax.",
  },
  [E.CookiesAnticsrfWithoutSamesiteFlag]: {
    modifier: -20,
    description: "Anti-CSRF token cookie set without SameSite.",
    recommendation: "Use SameSite=Strict or Lax.",
  },
  [E.CookiesSessionWithoutHttponlyFlag]: {
    modifier: -30,
    description: "Session cookie set without HttpOnly.",
    recommendation: "Add HttpOnly.",
  },
  [E.CookiesSessionWithoutSecureFlag]: {
    modifier: -40,
    description: "Session cookie set without Secure.",
    recommendation: "Add Secure and set up HSTS.",
  },

  [E.RedirectionToHttps]: {
    modifier: 0,
    description: "Initial redirection is to HTTPS on the same host; the final destination is HTTPS.",
    recommendation: "",
  },
  [E.RedirectionOffHostFromHttp]: {
    modifier: -5,
    description: "Initial redirection from HTTP to HTTPS is to a different host, preventing HSTS.",
    recommendation: "Redirect to the same host on HTTPS first, then to the final host.",
  },
  [E.RedirectionNotToHttpsOnInitialRedirection]: {
    modifier: -10,
    description: "Redirects to HTTPS eventually, but the first redirection is to another HTTP URL.",
    recommendation: "Redirect to the same host on HTTPS first, then to the final host on HTTPS.",
  },
  [E.RedirectionNotToHttps]: {
    modifier: -20,
    description: "Redirects, but the final destination is not an HTTPS URL.",
    recommendation: "Redirect to the same host on HTTPS first, then to the final host on HTTPS.",
  },
  [E.RedirectionMissing]: {
    modifier: -20,
    description: "Does not redirect to an HTTPS site.",
    recommendation: "Redirect HTTP to the same host on HTTPS.",
  },

  [E.ReferrerPolicyPrivate]: {
    modifier: 5,
    description:
      "Referrer-Policy set to no-referrer, same-origin, strict-origin or strict-origin-when-cross-origin.",
    recommendation: "",
  },
  [E.ReferrerPolicyNotImplemented]: {
    modifier: 0,
    description: "Referrer-Policy not implemented.",
    recommendation: "Set it to strict-origin-when-cross-origin at a minimum.",
  },
  [E.ReferrerPolicyUnsafe]: {
    modifier: -5,
    description:
      "Referrer-Policy set unsafely to origin, origin-when-cross-origin, unsafe-url or no-referrer-when-downgrade.",
    recommendation: "Set it to strict-origin-when-cross-origin at a minimum.",
  },
  [E.ReferrerPolicyHeaderInvalid]: {
    modifier: -5,
    description: "Referrer-Policy cannot be recognized.",
    recommendation: "Set it to strict-origin-when-cross-origin at a minimum.",
  },

  [E.HstsImplementedMaxAgeAtLeastSixMonths]: {
    modifier: 0,
    description: "Strict-Transport-Security set to at least six months (15552000 seconds).",
    recommendation:
      "Consider preloading: add includeSubDomains and preload with max-age of at least 31536000 and submit the site to hstspreload.org.",
  },
  [E.HstsImplementedMaxAgeLessThanSixMonths]: {
    modifier: -10,
    description: "Strict-Transport-Security set to less than six months.",
    recommendation: "Raise max-age to at least 15552000, ideally 63072000.",
  },
  [E.HstsNotImplemented]: {
    modifier: -20,
    description: "Strict-Transport-Security not implemented.",
    recommendation: "Add `Strict-Transport-Security: max-age=63072000; includeSubDomains`.",
  },
  [E.HstsHeaderInvalid]: {
    modifier: -20,
    description: "Strict-Transport-Security cannot be recognized (no max-age, or the header is sent twice).",
    recommendation: "Send it once, with a numeric max-age.",
  },
  [E.HstsNotImplementedNoHttps]: {
    modifier: -20,
    description: "Strict-Transport-Security cannot be set for a page not served over HTTPS.",
    recommendation: "Serve the page over HTTPS and send HSTS from the HTTPS response.",
  },

  [E.SriImplementedAndAllScriptsLoadedSecurely]: {
    modifier: 5,
    description:
      "Subresource Integrity (SRI) is implemented and all scripts are loaded from a similar origin.",
    recommendation: "",
  },
  [E.SriImplementedAndExternalScriptsLoadedSecurely]: {
    modifier: 5,
    description: "Subresource Integrity (SRI) is implemented and all scripts are loaded securely.",
    recommendation: "",
  },
  [E.SriNotImplementedResponseNotHtml]: {
    modifier: 0,
    description: "Subresource Integrity (SRI) is only needed for HTML resources.",
    recommendation: "",
  },
  [E.SriNotImplementedButNoScriptsLoaded]: {
    modifier: 0,
    description: "Subresource Integrity (SRI) is not needed since the page loads no scripts.",
    recommendation: "",
  },
  [E.SriNotImplementedButAllScriptsLoadedFromSecureOrigin]: {
    modifier: 0,
    description:
      "Subresource Integrity (SRI) not implemented, but all scripts are loaded from a similar origin.",
    recommendation: "Add SRI (integrity attributes) for the bonus.",
  },
  [E.SriNotImplementedButExternalScriptsLoadedSecurely]: {
    modifier: -5,
    description:
      "Subresource Integrity (SRI) not implemented, but all external scripts are loaded over HTTPS.",
    recommendation: "Add integrity attributes to external scripts.",
  },
  [E.SriImplementedButExternalScriptsNotLoadedSecurely]: {
    modifier: -20,
    description:
      'Subresource Integrity (SRI) implemented, but external scripts are loaded over HTTP or use protocol-relative URLs (src="//…").',
    recommendation: "Load external scripts over HTTPS.",
  },
  [E.SriNotImplementedAndExternalScriptsNotLoadedSecurely]: {
    modifier: -50,
    description:
      'Subresource Integrity (SRI) not implemented, and external scripts are loaded over HTTP or use protocol-relative URLs (src="//…").',
    recommendation: "Load external scripts over HTTPS and add integrity attributes to them.",
  },

  [E.XContentTypeOptionsNosniff]: {
    modifier: 0,
    description: "X-Content-Type-Options set to nosniff.",
    recommendation: "",
  },
  [E.XContentTypeOptionsNotImplemented]: {
    modifier: -5,
    description: "X-Content-Type-Options not implemented.",
    recommendation: "Add `X-Content-Type-Options: nosniff`.",
  },
  [E.XContentTypeOptionsHeaderInvalid]: {
    modifier: -5,
    description: "X-Content-Type-Options cannot be recognized (sent twice or not nosniff).",
    recommendation: "Send it once, set to nosniff.",
  },

  [E.XFrameOptionsImplementedViaCsp]: {
    modifier: 5,
    description: "Framing is controlled by the CSP frame-ancestors directive.",
    recommendation: "",
  },
  [E.XFrameOptionsSameoriginOrDeny]: {
    modifier: 5,
    description: "X-Frame-Options set to SAMEORIGIN or DENY.",
    recommendation: "",
  },
  [E.XFrameOptionsAllowFromOrigin]: {
    modifier: 0,
    description: "X-Frame-Options uses ALLOW-FROM, which current browsers ignore.",
    recommendation: "Use CSP frame-ancestors with the allowed origin.",
  },
  [E.XFrameOptionsNotImplemented]: {
    modifier: -20,
    description: "Nothing stops other sites from framing the page (clickjacking).",
    recommendation: "Add CSP `frame-ancestors 'self'` (or X-Frame-Options: SAMEORIGIN).",
  },
  [E.XFrameOptionsHeaderInvalid]: {
    modifier: -20,
    description: "X-Frame-Options cannot be recognized (sent twice or an unknown value).",
    recommendation: "Use CSP frame-ancestors, or send X-Frame-Options once as DENY or SAMEORIGIN.",
  },

  [E.CrossOriginResourcePolicyHeaderInvalid]: {
    modifier: -5,
    description: "Cross-Origin-Resource-Policy cannot be recognized.",
    recommendation: "Use same-origin, same-site or cross-origin.",
  },
  [E.CrossOriginResourcePolicyImplementedWithCrossOrigin]: {
    modifier: 0,
    description: "Cross-Origin-Resource-Policy implemented, but allows cross-origin use.",
    recommendation: "",
  },
  [E.CrossOriginResourcePolicyImplementedWithSameOrigin]: {
    modifier: 10,
    description: "Cross-Origin-Resource-Policy implemented; it prevents leaks into cross-origin contexts.",
    recommendation: "",
  },
  [E.CrossOriginResourcePolicyImplementedWithSameSite]: {
    modifier: 10,
    description: "Cross-Origin-Resource-Policy implemented; it prevents leaks into cross-site contexts.",
    recommendation: "",
  },
  [E.CrossOriginResourcePolicyNotImplemented]: {
    modifier: 0,
    description: "Cross-Origin-Resource-Policy not implemented (defaults to cross-origin).",
    recommendation: "",
  },
};

export function getScoreModifier(result: Expectation): number {
  return SCORE_TABLE[result].modifier;
}

/** The Observatory's GRADE_CHART: the score rounded down to a multiple of 5, capped at 100. */
const GRADE_CHART = new Map<number, string>([
  [100, "A+"],
  [95, "A"],
  [90, "A"],
  [85, "A-"],
  [80, "B+"],
  [75, "B"],
  [70, "B"],
  [65, "B-"],
  [60, "C+"],
  [55, "C"],
  [50, "C"],
  [45, "C-"],
  [40, "D+"],
  [35, "D"],
  [30, "D"],
  [25, "D-"],
  [20, "F"],
  [15, "F"],
  [10, "F"],
  [5, "F"],
  [0, "F"],
]);
const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

export function getGradeForScore(raw: number): { score: number; grade: string } {
  const score = Math.max(raw, 0);
  const key = Math.min(score - (score % 5), 100);
  const grade = GRADE_CHART.get(key);
  if (!grade) throw new Error(`Score of ${key} did not map to a grade`);
  return { score, grade };
}

/** src/scanner/index.js: 100 + every modifier, but bonuses only count when the penalties alone leave ≥ 90. */
export function scoreModifiers(modifiers: number[]): { score: number; grade: string } {
  let withExtraCredit = 100;
  let uncurved = 100;
  for (const m of modifiers) {
    withExtraCredit += m;
    if (m < 0) uncurved += m;
  }
  return getGradeForScore(uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withExtraCredit : uncurved);
}

// ---------------------------------------------------------------------------------------------------------
// Input: one fetched response.

export interface RouteHop {
  url: URL;
  status: number;
}

export interface ObservatoryInput {
  /** The URL that answered (the Observatory's session URL / HTTPS response). */
  url: URL;
  /** Response headers, lower-case names, every value. */
  headers: HeaderMap;
  /** The response body parsed as HTML. */
  $: CheerioAPI;
  /** <meta http-equiv> values as parseHttpEquivHeaders collects them (see httpEquivHeaders). */
  httpEquiv: Map<string, string[]>;
  /** The redirect chain starting at an http:// URL, ending with the answering URL; undefined if not observed. */
  httpRoute?: RouteHop[];
}

export interface TestOutput {
  result: Expectation;
  pass: boolean;
}

/**
 * Values of a header as Node's HTTP client hands them to the Observatory: repeated lines joined with ", "
 * (set-cookie stays a list). The Observatory then reads the first (joined) value.
 */
function getFirstHttpHeader(headers: HeaderMap, name: string): string | null {
  const values = headers[name.toLowerCase()];
  return values && values.length > 0 ? values.join(", ") : null;
}

function getHttpHeaders(headers: HeaderMap, name: string): string[] {
  const first = getFirstHttpHeader(headers, name);
  return first === null ? [] : [first];
}

/** src/retriever/utils.js parseHttpEquivHeaders: CSP from <meta http-equiv>, Referrer-Policy from <meta name=referrer>. */
export function httpEquivHeaders($: CheerioAPI): Map<string, string[]> {
  const out = new Map<string, string[]>([["content-security-policy", []]]);
  $("meta").each((_, el) => {
    const attribs = el.attribs;
    if (attribs["http-equiv"] !== undefined && attribs.content !== undefined) {
      const httpEquiv = attribs["http-equiv"].toLowerCase().trim();
      if (attribs.content && httpEquiv === "content-security-policy") {
        out.get("content-security-policy")?.push(attribs.content);
      }
    } else if (attribs.name?.toLowerCase().trim() === "referrer") {
      if (attribs.content) out.set("referrer-policy", [attribs.content]);
    }
  });
  return out;
}

function onlyIfWorse(next: Expectation, current: Expectation | null, order: Expectation[]): Expectation {
  if (!current) return next;
  return order.indexOf(next) > order.indexOf(current) ? next : current;
}

// ---------------------------------------------------------------------------------------------------------
// CSP parser (src/analyzer/cspParser.js).

const SHORTEST_DIRECTIVE_LENGTH = "img-src".length - 1;
const DIRECTIVES_DISALLOWED_IN_META = ["frame-ancestors", "report-uri", "sandbox"];
const ALLOWED_DUPLICATE_KEYS = new Set(["report-uri", "report-to"]);
export const DUPLICATE_WARNINGS_KEY = "_observatory_duplicate_key_warnings";
const compareString = new Intl.Collator("en").compare;

interface SourceEntry {
  source: string;
  index: number;
  keep: boolean;
}

export type CspMap = Map<string, Set<string>>;

function parseCspMeta(cspList: string[]): CspMap {
  const ret = parseCsp(cspList);
  for (const directive of DIRECTIVES_DISALLOWED_IN_META) ret.delete(directive);
  return ret;
}

/**
 * Parses one or more policies into their intersection: directive → sources. Throws on an empty policy or a
 * repeated directive (report-uri/report-to repeats are recorded under DUPLICATE_WARNINGS_KEY instead).
 */
export function parseCsp(cspList: string[]): CspMap {
  const cleanCspList = cspList.map((s) => s.replaceAll(/[\r\n]/g, "").trim());
  if (cleanCspList.length === 0) return new Map();
  for (const cspString of cleanCspList) {
    if (!cspString || cspString.length < SHORTEST_DIRECTIVE_LENGTH) {
      throw new Error(`Invalid policy: ${cspString}`);
    }
  }
  const csp = new Map<string, SourceEntry[]>();
  const duplicateWarnings = new Set<string>();

  for (const [policyIndex, policy] of cleanCspList.entries()) {
    const seen = new Set<string>();
    for (const [directiveEntry, ...valueEntries] of policy.split(";").map((e) => e.trim().split(/\s+/))) {
      if (!directiveEntry) continue;
      const directive = directiveEntry.toLowerCase();
      if (seen.has(directive)) {
        if (ALLOWED_DUPLICATE_KEYS.has(directive)) duplicateWarnings.add(directive);
        else throw new Error(`Duplicate directive ${directive} in policy ${policyIndex}`);
      } else {
        seen.add(directive);
      }
      const values: SourceEntry[] = [];
      const keep = policyIndex === 0;
      if (valueEntries.length > 0) {
        values.push(
          ...valueEntries.map((raw) => ({
            source: raw.trim().toLocaleLowerCase(),
            index: policyIndex,
            keep,
          })),
        );
      } else if (directive.endsWith("-src")) {
        // A source list with no values is 'none'.
        values.push({ source: "'none'", index: policyIndex, keep });
      }
      const combined = policyIndex === 0 ? [...values] : [...(csp.get(directive) ?? []), ...values];
      combined.sort((a, b) => compareString(a.source, b.source));
      for (let i = 1; i < combined.length; i++) {
        const source = combined[i];
        const prev = combined[i - 1];
        if (!source || !prev) continue;
        // Within one policy a longer source that starts like a shorter one is superfluous.
        if (source.index === prev.index && source.source.startsWith(prev.source)) source.keep = false;
        // A source has to exist in both policies to count.
        if (source.index !== prev.index && pathPartMatch(prev.source, source.source)) source.keep = true;
      }
      csp.set(
        directive,
        combined.filter((s) => s.keep),
      );
      // With several policies, the first one's sources are kept only when a later policy confirms them.
      if (policyIndex === 0 && cspList.length > 1) {
        for (const s of csp.get(directive) ?? []) s.keep = false;
      }
    }
  }
  const finalCsp: CspMap = new Map(
    [...csp.entries()].map(([directive, sources]) => [
      directive,
      sources.length > 0 ? new Set(sources.map((s) => s.source)) : new Set(["'none'"]),
    ]),
  );
  if (duplicateWarnings.size > 0) finalCsp.set(DUPLICATE_WARNINGS_KEY, duplicateWarnings);
  return finalCsp;
}

function pathPartMatch(pathA: string, pathB: string): boolean {
  if (pathA.length === 0) return true;
  if (pathA === "/" && pathB.length === 0) return true;
  const exactMatch = !pathA.endsWith("/");
  const listA = pathA.split("/");
  const listB = pathB.split("/");
  if (listA.length > listB.length) return false;
  if (exactMatch && listA.length !== listB.length) return false;
  if (!exactMatch) listA.pop();
  for (const [i, a] of listA.entries()) {
    const b = listB[i];
    if (b === undefined) return false;
    if (safeDecode(a) !== safeDecode(b)) return false;
  }
  return true;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Content-Security-Policy (src/analyzer/tests/csp.js).

const DANGEROUSLY_BROAD = new Set([
  "ftp:",
  "http:",
  "https:",
  "*",
  "http://*",
  "http://*.*",
  "https://*",
  "https://*.*",
]);
const UNSAFE_INLINE = new Set(["'unsafe-inline'", "data:"]);
const DANGEROUSLY_BROAD_AND_UNSAFE_INLINE = new Set([...DANGEROUSLY_BROAD, ...UNSAFE_INLINE]);
const PASSIVE_DIRECTIVES = new Set(["img-src", "media-src"]);
const NONCES_HASHES = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];

interface CspPolicyFlags {
  antiClickjacking: boolean;
  defaultNone: boolean;
  insecureBaseUri: boolean;
  insecureFormAction: boolean;
  insecureSchemeActive: boolean;
  insecureSchemePassive: boolean;
  strictDynamic: boolean;
  unsafeEval: boolean;
  unsafeInline: boolean;
  unsafeInlineStyle: boolean;
  unsafeObjects: boolean;
}

export interface CspOutput extends TestOutput {
  /** The effective policy, sources sorted; null when there is none or it cannot be parsed. */
  data: Record<string, string[]> | null;
  http: boolean;
  meta: boolean;
  numPolicies: number;
  policy: CspPolicyFlags | null;
}

function startsWithNoncesHash(sources: Iterable<string>): boolean {
  return [...sources].some((s) => NONCES_HASHES.some((p) => s.startsWith(p)));
}

function splitCspHeaders(raw: string[]): string[] {
  return raw.flatMap((v) => v.split(",").map((s) => s.trim()));
}

export function contentSecurityPolicyTest(
  input: ObservatoryInput,
  expectation: Expectation = E.CspImplementedWithNoUnsafe,
): CspOutput {
  const output: CspOutput = {
    result: E.CspNotImplemented,
    pass: false,
    data: null,
    http: false,
    meta: false,
    numPolicies: 0,
    policy: null,
  };
  let result: Expectation | null = null;
  const httpPolicies = splitCspHeaders(getHttpHeaders(input.headers, "content-security-policy"));
  const equivPolicies = splitCspHeaders(input.httpEquiv.get("content-security-policy") ?? []);
  output.numPolicies = httpPolicies.length + equivPolicies.length;

  let csp: CspMap;
  try {
    csp = parseCsp([...httpPolicies, ...equivPolicies]);
  } catch {
    output.result = E.CspHeaderInvalid;
    return output;
  }
  let httpOnlyCsp: CspMap;
  try {
    httpOnlyCsp = parseCsp(httpPolicies);
  } catch {
    httpOnlyCsp = new Map();
  }
  let metaCsp: CspMap;
  try {
    metaCsp = parseCspMeta(equivPolicies);
  } catch {
    metaCsp = new Map();
  }
  // A single meta tag with only a disallowed directive comes out as csp-not-implemented.
  if (httpOnlyCsp.size + metaCsp.size === 0) {
    output.result = getFirstHttpHeader(input.headers, "content-security-policy-report-only")
      ? E.CspNotImplementedButReportingEnabled
      : E.CspNotImplemented;
    return output;
  }
  const policy: CspPolicyFlags = {
    antiClickjacking: false,
    defaultNone: false,
    insecureBaseUri: false,
    insecureFormAction: false,
    insecureSchemeActive: false,
    insecureSchemePassive: false,
    strictDynamic: false,
    unsafeEval: false,
    unsafeInline: false,
    unsafeInlineStyle: false,
    unsafeObjects: false,
  };
  output.policy = policy;
  output.http = httpPolicies.length > 0;
  output.meta = equivPolicies.length > 0;

  const star = () => new Set(["*"]);
  const baseUri = csp.get("base-uri") ?? star();
  // frame-ancestors only counts from a header.
  const frameAncestors = httpOnlyCsp.get("frame-ancestors") ?? star();
  const formAction = csp.get("form-action") ?? star();
  const objectSrc = csp.get("object-src") ?? csp.get("default-src") ?? star();
  const scriptSrc = csp.get("script-src") ?? csp.get("default-src") ?? star();
  const styleSrc = csp.get("style-src") ?? csp.get("default-src") ?? star();

  // A nonce or hash makes browsers ignore 'unsafe-inline'.
  for (const list of [scriptSrc, styleSrc]) {
    if (startsWithNoncesHash(list) && list.has("'unsafe-inline'")) list.delete("'unsafe-inline'");
  }
  // 'strict-dynamic' with a nonce/hash: scheme sources, 'self' and 'unsafe-inline' are ignored.
  if (startsWithNoncesHash(scriptSrc) && scriptSrc.has("'strict-dynamic'")) {
    for (const source of [...scriptSrc]) {
      if (
        [...DANGEROUSLY_BROAD].some((s) => source.startsWith(s)) ||
        source === "'self'" ||
        source === "'unsafe-inline'"
      ) {
        scriptSrc.delete(source);
      }
    }
    policy.strictDynamic = true;
  } else if (scriptSrc.has("'strict-dynamic'") && result === null) {
    result = E.CspHeaderInvalid;
  }

  const activeSources = [...csp.entries()]
    .filter(([directive]) => !PASSIVE_DIRECTIVES.has(directive) && directive !== "script-src")
    .flatMap(([, list]) => [...list]);
  activeSources.push(...scriptSrc);
  const passiveSources = [...PASSIVE_DIRECTIVES].flatMap((d) => [
    ...(csp.get(d) ?? csp.get("default-src") ?? new Set<string>()),
  ]);

  if (
    [...scriptSrc].some((s) => DANGEROUSLY_BROAD_AND_UNSAFE_INLINE.has(s)) ||
    [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s))
  ) {
    if (result === null) result = E.CspImplementedWithUnsafeInline;
    policy.unsafeInline = true;
  }
  const secure = input.url.protocol === "https:";
  const insecure = (s: string) => s.startsWith("http:") || s.startsWith("ftp:");
  if (secure && activeSources.some(insecure)) {
    if (result === null) result = E.CspImplementedWithInsecureScheme;
    policy.insecureSchemeActive = true;
  }
  if (new Set([...scriptSrc, ...styleSrc]).has("'unsafe-eval'")) {
    if (result === null) result = E.CspImplementedWithUnsafeEval;
    policy.unsafeEval = true;
  }
  if (secure && passiveSources.some(insecure)) {
    if (result === null) result = E.CspImplementedWithInsecureSchemeInPassiveContentOnly;
    policy.insecureSchemePassive = true;
  }
  if ([...styleSrc].some((s) => DANGEROUSLY_BROAD_AND_UNSAFE_INLINE.has(s))) {
    if (result === null) result = E.CspImplementedWithUnsafeInlineInStyleSrcOnly;
    policy.unsafeInlineStyle = true;
  }
  const defaultSrc = csp.get("default-src");
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1) {
    if (result === null) result = E.CspImplementedWithNoUnsafeDefaultSrcNone;
    policy.defaultNone = true;
  } else if (result === null) {
    result = E.CspImplementedWithNoUnsafe;
  }

  policy.antiClickjacking = ![...frameAncestors].some((s) => DANGEROUSLY_BROAD.has(s));
  policy.insecureBaseUri = [...baseUri].some((s) => DANGEROUSLY_BROAD_AND_UNSAFE_INLINE.has(s));
  policy.insecureFormAction = [...formAction].some((s) => DANGEROUSLY_BROAD.has(s));
  policy.unsafeObjects = [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s));

  output.result = result;
  const passing: Expectation[] = [
    expectation,
    E.CspImplementedWithNoUnsafeDefaultSrcNone,
    E.CspImplementedWithUnsafeInlineInStyleSrcOnly,
    E.CspImplementedWithInsecureSchemeInPassiveContentOnly,
  ];
  if (passing.includes(result)) {
    output.pass = true;
    if (csp.has(DUPLICATE_WARNINGS_KEY)) output.result = E.CspImplementedButDuplicateDirectives;
  }
  output.data = {};
  for (const [key, value] of csp) {
    if (key === DUPLICATE_WARNINGS_KEY) continue;
    output.data[key] = [...value].sort();
  }
  return output;
}

// ---------------------------------------------------------------------------------------------------------
// X-Frame-Options (src/analyzer/tests/x-frame-options.js).

export interface XfoOutput extends TestOutput {
  data: string | null;
}

export function xFrameOptionsTest(
  input: ObservatoryInput,
  expectation: Expectation = E.XFrameOptionsSameoriginOrDeny,
): XfoOutput {
  const output: XfoOutput = { result: E.XFrameOptionsNotImplemented, pass: false, data: null };
  const header = getFirstHttpHeader(input.headers, "x-frame-options");
  if (header) {
    output.data = header.slice(0, 1024);
    const xfo = output.data.trim().toLowerCase();
    if (xfo === "deny" || xfo === "sameorigin") output.result = E.XFrameOptionsSameoriginOrDeny;
    else if (xfo.startsWith("allow-from")) output.result = E.XFrameOptionsAllowFromOrigin;
    else output.result = E.XFrameOptionsHeaderInvalid;
  }
  // frame-ancestors in the CSP supersedes X-Frame-Options, whatever its value.
  const csp = contentSecurityPolicyTest(input);
  if (csp.data?.["frame-ancestors"]) output.result = E.XFrameOptionsImplementedViaCsp;
  const passing: Expectation[] = [
    E.XFrameOptionsAllowFromOrigin,
    E.XFrameOptionsSameoriginOrDeny,
    E.XFrameOptionsImplementedViaCsp,
    expectation,
  ];
  output.pass = passing.includes(output.result);
  return output;
}

// ---------------------------------------------------------------------------------------------------------
// Strict-Transport-Security (src/analyzer/tests/strict-transport-security.js), without the preload list.

export interface HstsOutput extends TestOutput {
  data: string | null;
  includeSubDomains: boolean;
  maxAge: number | null;
  preload: boolean;
}

// 15768000 is six months, but many sites use 15552000, so the Observatory accepts that.
const SIX_MONTHS = 15_552_000;

export function strictTransportSecurityTest(
  input: ObservatoryInput,
  expectation: Expectation = E.HstsImplementedMaxAgeAtLeastSixMonths,
): HstsOutput {
  const output: HstsOutput = {
    result: E.HstsNotImplemented,
    pass: false,
    data: null,
    includeSubDomains: false,
    maxAge: null,
    preload: false,
  };
  const header = getFirstHttpHeader(input.headers, "strict-transport-security");
  if (input.url.protocol !== "https:") {
    output.result = E.HstsNotImplementedNoHttps;
  } else if (header !== null) {
    output.data = header.slice(0, 1024);
    try {
      if (output.data.includes(",")) throw new Error("Header set multiple times");
      for (const parameter of output.data.split(";").map((p) => p.trim().toLowerCase())) {
        if (parameter.startsWith("max-age=")) output.maxAge = Number.parseInt(parameter.slice(8, 128), 10);
        else if (parameter === "includesubdomains") output.includeSubDomains = true;
        else if (parameter === "preload") output.preload = true;
      }
      if (output.maxAge === null) throw new Error("MaxAge missing");
      output.result =
        output.maxAge < SIX_MONTHS
          ? E.HstsImplementedMaxAgeLessThanSixMonths
          : E.HstsImplementedMaxAgeAtLeastSixMonths;
    } catch {
      output.result = E.HstsHeaderInvalid;
    }
  }
  output.pass = output.result === E.HstsImplementedMaxAgeAtLeastSixMonths || output.result === expectation;
  return output;
}

// ---------------------------------------------------------------------------------------------------------
// X-Content-Type-Options (src/analyzer/tests/x-content-type-options.js).

export function xContentTypeOptionsTest(
  input: ObservatoryInput,
  expectation: Expectation = E.XContentTypeOptionsNosniff,
): TestOutput & { data: string | null } {
  const header = getFirstHttpHeader(input.headers, "x-content-type-options");
  let result: Expectation = E.XContentTypeOptionsNotImplemented;
  let data: string | null = null;
  if (header) {
    data = header.slice(0, 256);
    result =
      data.trim().toLowerCase() === "nosniff"
        ? E.XContentTypeOptionsNosniff
        : E.XContentTypeOptionsHeaderInvalid;
  }
  return { result, pass: result === expectation, data };
}

// ---------------------------------------------------------------------------------------------------------
// Referrer-Policy (src/analyzer/tests/referrer-policy.js).

const REFERRER_GOOD = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];
const REFERRER_BAD = ["origin", "origin-when-cross-origin", "unsafe-url", "no-referrer-when-downgrade"];
const REFERRER_VALID = new Set([...REFERRER_GOOD, ...REFERRER_BAD]);

export interface ReferrerOutput extends TestOutput {
  data: string | null;
  http: boolean;
  meta: boolean;
}

export function referrerPolicyTest(input: ObservatoryInput): ReferrerOutput {
  const httpHeaders = getHttpHeaders(input.headers, "referrer-policy");
  const equivHeaders = input.httpEquiv.get("referrer-policy") ?? [];
  const output: ReferrerOutput = {
    result: E.ReferrerPolicyNotImplemented,
    pass: true,
    data: null,
    http: httpHeaders.length > 0,
    meta: equivHeaders.length > 0,
  };
  if (!output.http && !output.meta) return output;
  // Header and meta together: the meta tag comes last and so wins.
  output.data = [...httpHeaders, ...equivHeaders].join(", ");
  const policy =
    output.data
      .split(",")
      .filter((e) => REFERRER_VALID.has(e.toLowerCase().trim()))
      .reverse()[0]
      ?.toLowerCase()
      .trim() ?? "";
  if (REFERRER_GOOD.includes(policy)) output.result = E.ReferrerPolicyPrivate;
  else if (REFERRER_BAD.includes(policy)) output.result = E.ReferrerPolicyUnsafe;
  else output.result = E.ReferrerPolicyHeaderInvalid;
  output.pass = output.result === E.ReferrerPolicyPrivate;
  return output;
}

// ---------------------------------------------------------------------------------------------------------
// Cross-Origin-Resource-Policy (src/analyzer/tests/cross-origin-resource-policy.js).

export function crossOriginResourcePolicyTest(input: ObservatoryInput): TestOutput & { data: string | null } {
  const header = getFirstHttpHeader(input.headers, "cross-origin-resource-policy");
  const equiv = input.httpEquiv.get("cross-origin-resource-policy") ?? [];
  let corp: string | undefined;
  if (header) corp = header.slice(0, 256).trim().toLowerCase();
  else if (equiv.length > 0) corp = equiv.at(-1)?.slice(0, 256).trim().toLowerCase();
  let result: Expectation = E.CrossOriginResourcePolicyNotImplemented;
  if (corp) {
    if (corp === "same-site") result = E.CrossOriginResourcePolicyImplementedWithSameSite;
    else if (corp === "same-origin") result = E.CrossOriginResourcePolicyImplementedWithSameOrigin;
    else if (corp === "cross-origin") result = E.CrossOriginResourcePolicyImplementedWithCrossOrigin;
    else result = E.CrossOriginResourcePolicyHeaderInvalid;
  }
  return { result, pass: result !== E.CrossOriginResourcePolicyHeaderInvalid, data: corp ?? null };
}

// ---------------------------------------------------------------------------------------------------------
// Cookies (src/analyzer/tests/cookies.js), over the response's Set-Cookie headers.

interface ParsedCookie {
  key: string;
  secure: boolean;
  httpOnly: boolean;
  /** strict, lax or none; undefined when absent or not one of those (as tough-cookie parses it). */
  sameSite: "strict" | "lax" | "none" | undefined;
}

const COOKIES_TO_DELETE = new Set(["heroku-session-affinity"]);

/** Parses a Set-Cookie value the way the Observatory's cookie jar keeps it; undefined if the jar would drop it. */
function parseSetCookie(value: string, host: string, now = Date.now()): ParsedCookie | undefined {
  const [pair = "", ...attrs] = value.split(";");
  const eq = pair.indexOf("=");
  const key = (eq === -1 ? "" : pair.slice(0, eq)).trim();
  const cookie: ParsedCookie = { key, secure: false, httpOnly: false, sameSite: undefined };
  for (const attr of attrs) {
    const i = attr.indexOf("=");
    const name = (i === -1 ? attr : attr.slice(0, i)).trim().toLowerCase();
    const val = i === -1 ? "" : attr.slice(i + 1).trim();
    if (name === "secure") cookie.secure = true;
    else if (name === "httponly") cookie.httpOnly = true;
    else if (name === "samesite") {
      const v = val.toLowerCase();
      cookie.sameSite = v === "strict" || v === "lax" || v === "none" ? v : undefined;
    } else if (name === "max-age" && /^-?\d+$/.test(val) && Number(val) <= 0) return undefined;
    else if (name === "expires") {
      const t = Date.parse(val);
      if (!Number.isNaN(t) && t <= now) return undefined;
    } else if (name === "domain" && val) {
      // A jar rejects a cookie for a domain the host is not in.
      const domain = val.replace(/^\./, "").toLowerCase();
      if (host !== domain && !host.endsWith(`.${domain}`)) return undefined;
    }
  }
  return cookie;
}

function containsInvalidSameSiteCookie(cookieString: string): boolean {
  for (const p of cookieString.trim().split(";")) {
    const [key, value] = p.trim().split("=");
    if (key && key.trim().toLowerCase() === "samesite") {
      if (!value) return true;
      if (!["lax", "strict", "none"].includes(value.trim().toLowerCase())) return true;
    }
  }
  return false;
}

export interface CookiesOutput extends TestOutput {
  data: Record<string, ParsedCookie> | null;
  sameSite: boolean | null;
}

export function cookiesTest(
  input: ObservatoryInput,
  expectation: Expectation = E.CookiesSecureWithHttponlySessions,
): CookiesOutput {
  const order: Expectation[] = [
    E.CookiesWithoutSecureFlagButProtectedByHsts,
    E.CookiesWithoutSecureFlag,
    E.CookiesSessionWithoutSecureFlagButProtectedByHsts,
    E.CookiesSamesiteFlagInvalid,
    E.CookiesAnticsrfWithoutSamesiteFlag,
    E.CookiesSessionWithoutHttponlyFlag,
    E.CookiesSessionWithoutSecureFlag,
  ];
  const hsts = strictTransportSecurityTest(input).pass;
  const output: CookiesOutput = { result: E.CookiesNotFound, pass: false, data: null, sameSite: false };
  let result: Expectation | null = null;
  const raw = input.headers["set-cookie"] ?? [];
  for (const rawCookie of raw) {
    if (containsInvalidSameSiteCookie(rawCookie))
      result = onlyIfWorse(E.CookiesSamesiteFlagInvalid, result, order);
  }
  // The jar keeps the last cookie of each name.
  const jar = new Map<string, ParsedCookie>();
  for (const v of raw) {
    const c = parseSetCookie(v, input.url.hostname);
    if (c?.key && !COOKIES_TO_DELETE.has(c.key)) jar.set(c.key, c);
  }
  const all = [...jar.values()];
  if (all.length === 0) {
    output.result = E.CookiesNotFound;
  } else {
    let missingSameSite = false;
    for (const cookie of all) {
      const lower = cookie.key.toLowerCase();
      const sessionId = lower.includes("login") || lower.includes("sess");
      const anticsrf = lower.includes("csrf");
      if (!cookie.secure && cookie.sameSite === "none") {
        result = onlyIfWorse(E.CookiesSamesiteFlagInvalid, result, order);
      }
      if (!cookie.secure && hsts)
        result = onlyIfWorse(E.CookiesWithoutSecureFlagButProtectedByHsts, result, order);
      else if (!cookie.secure) result = onlyIfWorse(E.CookiesWithoutSecureFlag, result, order);
      if (anticsrf && !cookie.sameSite)
        result = onlyIfWorse(E.CookiesAnticsrfWithoutSamesiteFlag, result, order);
      if (sessionId && !cookie.secure && hsts) {
        result = onlyIfWorse(E.CookiesSessionWithoutSecureFlagButProtectedByHsts, result, order);
      } else if (sessionId && !cookie.secure) {
        result = onlyIfWorse(E.CookiesSessionWithoutSecureFlag, result, order);
      }
      if (sessionId && !cookie.httpOnly)
        result = onlyIfWorse(E.CookiesSessionWithoutHttponlyFlag, result, order);
      if (!cookie.sameSite) missingSameSite = true;
    }
    if (!result) {
      result = missingSameSite
        ? E.CookiesSecureWithHttponlySessions
        : E.CookiesSecureWithHttponlySessionsAndSamesite;
      output.sameSite = !missingSameSite;
    }
    output.result = result;
    output.data = Object.fromEntries(all.map((c) => [c.key, c]));
  }
  const passing: Expectation[] = [
    E.CookiesNotFound,
    E.CookiesSecureWithHttponlySessionsAndSamesite,
    expectation,
  ];
  output.pass = passing.includes(output.result);
  return output;
}

// ---------------------------------------------------------------------------------------------------------
// Subresource Integrity (src/analyzer/tests/subresource-integrity.js).

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

export interface SriOutput extends TestOutput {
  data: Record<string, { crossorigin: string | null; integrity: string | null }>;
}

export function subresourceIntegrityTest(
  input: ObservatoryInput,
  expectation: Expectation = E.SriImplementedAndExternalScriptsLoadedSecurely,
): SriOutput {
  const order: Expectation[] = [
    E.SriImplementedAndAllScriptsLoadedSecurely,
    E.SriImplementedAndExternalScriptsLoadedSecurely,
    E.SriImplementedButExternalScriptsNotLoadedSecurely,
    E.SriNotImplementedButExternalScriptsLoadedSecurely,
    E.SriNotImplementedAndExternalScriptsNotLoadedSecurely,
    E.SriNotImplementedResponseNotHtml,
  ];
  const output: SriOutput = { result: E.SriNotImplementedButNoScriptsLoaded, pass: false, data: {} };
  let result: Expectation | null = null;
  const mime = (getFirstHttpHeader(input.headers, "content-type") ?? "").split(";")[0];
  if (mime && !HTML_TYPES.has(mime)) {
    result = E.SriNotImplementedResponseNotHtml;
  } else {
    const scripts = input.$("script").toArray();
    const siteDomain = parseDomain(input.url.hostname).domain;
    let scriptsOnForeignOrigin = false;
    for (const script of scripts) {
      const src = script.attribs.src;
      if (!src) continue;
      const integrity = script.attribs.integrity || null;
      const crossorigin = script.attribs.crossorigin || null;
      let relativeOrigin = false;
      let relativeProtocol = false;
      let sameSecondLevelDomain: boolean;
      if (/^(\/\/)[^/]/.test(src)) {
        relativeProtocol = true;
        sameSecondLevelDomain = true;
      } else if (/^https?:\/\//.test(src)) {
        sameSecondLevelDomain = parseDomain(src).domain === siteDomain;
      } else {
        relativeOrigin = true;
        sameSecondLevelDomain = true;
      }
      const secureOrigin = relativeOrigin || (sameSecondLevelDomain && !relativeProtocol);
      if (!secureOrigin) scriptsOnForeignOrigin = true;
      let scheme: string | null = null;
      if (!relativeProtocol && !relativeOrigin) {
        try {
          scheme = new URL(src).protocol;
        } catch {
          scheme = null;
        }
      }
      const secureScheme = scheme === "https:" || (relativeOrigin && input.url.protocol === "https:");
      if (!secureOrigin) {
        output.data[src] = { crossorigin, integrity };
        if (integrity && !secureScheme) {
          result = onlyIfWorse(E.SriImplementedButExternalScriptsNotLoadedSecurely, result, order);
        } else if (!integrity && secureScheme) {
          result = onlyIfWorse(E.SriNotImplementedButExternalScriptsLoadedSecurely, result, order);
        } else if (!integrity && !secureScheme) {
          result = onlyIfWorse(E.SriNotImplementedAndExternalScriptsNotLoadedSecurely, result, order);
        }
      } else if (integrity && secureScheme && !result) {
        // The bonus is granted even for SRI on the same origin.
        result = E.SriImplementedAndAllScriptsLoadedSecurely;
      }
    }
    if (scripts.length === 0) result = E.SriNotImplementedButNoScriptsLoaded;
    else if (!result) {
      result = scriptsOnForeignOrigin
        ? E.SriImplementedAndExternalScriptsLoadedSecurely
        : E.SriNotImplementedButAllScriptsLoadedFromSecureOrigin;
    }
  }
  output.result = result;
  if (JSON.stringify(output.data).length >= 32_768) output.data = {};
  const passing: Expectation[] = [
    E.SriImplementedAndAllScriptsLoadedSecurely,
    E.SriImplementedAndExternalScriptsLoadedSecurely,
    E.SriNotImplementedResponseNotHtml,
    E.SriNotImplementedButAllScriptsLoadedFromSecureOrigin,
    E.SriNotImplementedButNoScriptsLoaded,
    expectation,
  ];
  output.pass = passing.includes(result);
  return output;
}

// ---------------------------------------------------------------------------------------------------------
// Redirection (src/analyzer/tests/redirection.js), only when the chain from an http:// URL was observed;
// the HSTS preload list (redirection-all-redirects-preloaded) is not consulted.

export interface RedirectionOutput extends TestOutput {
  route: string[];
}

export function redirectionTest(route: RouteHop[]): RedirectionOutput {
  let result: Expectation;
  const last = route.at(-1);
  if (route.length <= 1) result = E.RedirectionMissing;
  else if (last?.url.protocol !== "https:") result = E.RedirectionNotToHttps;
  else if (route[1]?.url.protocol === "http:") result = E.RedirectionNotToHttpsOnInitialRedirection;
  else if (
    route[0]?.url.protocol === "http:" &&
    route[1]?.url.protocol === "https:" &&
    route[0]?.url.hostname !== route[1]?.url.hostname
  ) {
    result = E.RedirectionOffHostFromHttp;
  } else result = E.RedirectionToHttps;
  return { result, pass: result === E.RedirectionToHttps, route: route.map((r) => r.url.href) };
}
