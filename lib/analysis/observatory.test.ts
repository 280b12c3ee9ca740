/*
 * This Source Code Form is subject to the terms of the Mozilla Public License, v. 2.0. If a copy of the MPL
 * was not distributed with this file, You can obtain one at https://mozilla.org/MPL/2.0/.
 *
 * The MDN HTTP Observatory's own test cases, ported to vitest tables. Source: https://github.com/mdn/mdn-http-observatory,
 * release v1.6.3 (commit 22e088df69a0d8734bd8f6ffad8a7ff97da8ddb8), files test/csp.test.js,
 * test/csp-parser.test.js, test/x-frame-options.test.js, test/strict-transport-security.test.js,
 * test/x-content-type-options.test.js, test/referrer-policy.test.js, test/cross-origin-resource-policy.test.js,
 * test/cookies.test.js, test/subresource-integrity.test.js, test/redirection.test.js, test/grader.test.js and
 * the HTML fixtures in test/files/. Copyright Mozilla; licensed MPL-2.0.
 *
 * Every upstream case is here except those that need what one fetched response cannot give (listed in
 * NOT_PORTED below); those are skipped with the reason, not changed.
 */
import { load } from "cheerio";
import { describe, expect, test } from "vitest";
import {
  contentSecurityPolicyTest,
  cookiesTest,
  crossOriginResourcePolicyTest,
  DUPLICATE_WARNINGS_KEY,
  Expectation,
  getGradeForScore,
  getScoreModifier,
  httpEquivHeaders,
  type ObservatoryInput,
  parseCsp,
  type RouteHop,
  redirectionTest,
  referrerPolicyTest,
  strictTransportSecurityTest,
  subresourceIntegrityTest,
  xContentTypeOptionsTest,
  xFrameOptionsTest,
} from "./observatory";
import type { HeaderMap } from "./types";

/** test/files/*.html at v1.6.3. */
const FILES: Record<string, string> = {
  test_content_sri_impl_external_http: `<html><head>
    <script src="/static/js/foo.js"></script>
    <script src="http://fb.me/react-0.14.6.min.js" integrity="sha384-zTm/dblzLXQNp3CgY+hfaC/WJ6h4XtNrePh2CW2+rO9GPuNiPb9jmthvAL+oI/dQ" crossorigin="anonymous"></script>
    <script src="https://fb.me/react-0.14.7.min.js" integrity="sha384-zTm/dblzLXQNp3CgY+hfaC/WJ6h4XtNrePh2CW2+rO9GPuNiPb9jmthvAL+oI/dQ" crossorigin="anonymous"></script>
  </head><body></body></html>`,
  test_content_sri_impl_external_https1: `<html><head>
    <script src="/static/js/foo.js"></script>
    <script src="https://fb.me/react-0.14.7.min.js" integrity="sha384-zTm/dblzLXQNp3CgY+hfaC/WJ6h4XtNrePh2CW2+rO9GPuNiPb9jmthvAL+oI/dQ" crossorigin="anonymous"></script>
  </head><body></body></html>`,
  test_content_sri_impl_external_https2: `<html><head>
    <script src="/static/js/foo.js"></script>
    <script src="https://localhost/react-0.14.7.min.js" integrity="sha384-zTm/dblzLXQNp3CgY+hfaC/WJ6h4XtNrePh2CW2+rO9GPuNiPb9jmthvAL+oI/dQ" crossorigin="anonymous"></script>
  </head><body></body></html>`,
  test_content_sri_impl_external_noproto: `<html><head>
    <script src="//fb.me/react-0.14.6.min.js" integrity="sha384-zTm/dblzLXQNp3CgY+hfaC/WJ6h4XtNrePh2CW2+rO9GPuNiPb9jmthvAL+oI/dQ" crossorigin="anonymous"></script>
  </head><body></body></html>`,
  test_content_sri_impl_sameorigin: `<html><head>
    <script src="/static/js/react-0.14.7.min.js" integrity="sha384-zTm/dblzLXQNp3CgY+hfaC/WJ6h4XtNrePh2CW2+rO9GPuNiPb9jmthvAL+oI/dQ" crossorigin="anonymous"></script>
  </head><body></body></html>`,
  test_content_sri_no_scripts: `<html><head></head><body></body></html>`,
  test_content_sri_notimpl_external_http: `<html><head>
    <script src="/static/js/foo.js"></script>
    <script src="http://fb.me/react-0.14.6.min.js"></script>
  </head><body></body></html>`,
  test_content_sri_notimpl_external_https: `<html><head>
    <script src="/static/js/foo.js"></script>
    <script src="https://fb.me/react-0.14.7.min.js"></script>
  </head><body></body></html>`,
  test_content_sri_notimpl_external_noproto: `<html><head>
    <script src="/static/js/foo.js"></script>
    <script src="//fb.me/react-0.14.6.min.js"></script>
  </head><body></body></html>`,
  test_content_sri_sameorigin1: `<html><head><script src="/static/js/foo.js"></script></head><body></body></html>`,
  test_content_sri_sameorigin2: `<html><head><script src="https://www.mozilla.org/static/js/foo.js"></script></head><body></body></html>`,
  test_content_sri_sameorigin3: `<html><head><script src="//www.mozilla.org/static/js/foo.js"></script></head><body></body></html>`,
  test_parse_http_equiv_headers_csp1: `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="default-src 'none';" /><title>Title</title></head><body></body></html>`,
  test_parse_http_equiv_headers_csp2: `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="default-src https:" /><title>Title</title></head><body></body></html>`,
  test_parse_http_equiv_headers_csp_multiple_http_equiv1: `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; object-src 'none'; media-src 'none';" />
    <meta http-equiv="Content-SECURITY-Policy" content="connect-src 'self'; font-src 'self'; child-src 'self'" />
    <meta http-equiv=" Content-Security-Policy " content="img-src 'self'; style-src 'self' 'nonce-gAeQO8jI4VJCsrsXkcUVRCzQjiihKteQ" />
    <meta http-equiv="Content-security-Policy" content="script-src 'self' 'unsafe-inline' 'nonce-gAeQO8jI4VJCsrsXkcUVRCzQjiihKteQ'" />
    <title>Title</title></head><body></body></html>`,
  test_parse_http_equiv_headers_not_allowed: `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="frame-ancestors 'none'" /><title>Title</title></head><body></body></html>`,
  test_parse_http_equiv_headers_referrer1: `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
    <meta name="referrer" content="no-referrer, same-origin" /><title>Title</title></head><body></body></html>`,
  test_parse_http_equiv_headers_x_frame_options: `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
    <meta http-equiv="X-Frame-Options" content="DENY" /><title>Title</title></head><body></body></html>`,
};

/** test/helpers.js emptyRequests: https://mozilla.org/, Content-Type text/html, optional HTML fixture. */
function emptyRequests(
  file?: string,
  headers: HeaderMap = {},
  url = "https://mozilla.org/",
): ObservatoryInput {
  const html = file ? (FILES[file] ?? "") : "";
  const $ = load(html);
  return {
    url: new URL(url),
    headers: { "content-type": ["text/html"], ...headers },
    $,
    httpEquiv: httpEquivHeaders($),
  };
}
const csp = (value: string, file?: string) =>
  contentSecurityPolicyTest(emptyRequests(file, { "content-security-policy": [value] }));

/** Upstream cases that need more than one fetched response; they are not run (see SCORING.md). */
const NOT_PORTED = [
  "strict-transport-security: 'invalid cert' (needs the TLS verification result of a separate HTTPS request)",
  "strict-transport-security: 'preloaded' (needs Chromium's HSTS preload list, downloaded at install)",
  "redirection: 'all redirections preloaded' (needs the HSTS preload list)",
  "redirection: 'no http but does have https' (needs a separate request to the http:// URL)",
  "cors.test.js (needs a request sent with an Origin header)",
];

describe("Content Security Policy (test/csp.test.js)", () => {
  test("missing", () => {
    const result = contentSecurityPolicyTest(emptyRequests());
    expect(result.result).toBe(Expectation.CspNotImplemented);
    expect(result.numPolicies).toBe(0);
    expect(result.pass).toBe(false);
  });

  test.each([
    "  ",
    "",
    "default-src 'none'; default-src 'none'",
    "default-src 'none'; img-src 'self'; default-src 'none'",
    "default-src 'none'; script-src 'strict-dynamic'",
    "defa",
  ])("header invalid: %j", (value) => {
    const result = csp(value);
    expect(result.result).toBe(Expectation.CspHeaderInvalid);
    expect(result.numPolicies).toBe(1);
    expect(result.pass).toBe(false);
  });

  test.each(["default-src 'none'; script-src https://*", "default-src 'none'; script-src 'unsafe-inline'"])(
    "insecure scheme broad and unsafe: %s",
    (value) => {
      const result = csp(value);
      expect(result.result).toBe(Expectation.CspImplementedWithUnsafeInline);
      expect(result.pass).toBe(false);
      expect(result.policy?.unsafeInline).toBe(true);
    },
  );

  test.each([
    "default-src http://mozilla.org",
    "default-src 'none'; script-src http://mozilla.org",
    "default-src 'none'; script-src http://mozilla.org",
    "default-src 'none'; script-src ftp://mozilla.org",
  ])("insecure scheme: %s", (value) => {
    const result = csp(value);
    expect(result.result).toBe(Expectation.CspImplementedWithInsecureScheme);
    expect(result.pass).toBe(false);
    expect(result.policy?.insecureSchemeActive).toBe(true);
  });

  test.each([
    "default-src 'none'; img-src http://mozilla.org",
    "default-src 'self'; img-src ftp:",
    "default-src 'self'; img-src http:",
    "default-src 'none'; img-src https:; media-src http://mozilla.org",
    "default-src 'none'; img-src http: https:; script-src 'self'; style-src 'self'",
    "default-src 'none'; img-src 'none'; media-src http:; script-src 'self'; style-src 'self'",
    "default-src 'none'; img-src 'none'; media-src http:; script-src 'self'; style-src 'unsafe-inline'",
  ])("insecure scheme in passive content only: %s", (value) => {
    const result = csp(value);
    expect(result.result).toBe(Expectation.CspImplementedWithInsecureSchemeInPassiveContentOnly);
    expect(result.pass).toBe(true);
    expect(result.policy?.insecureSchemePassive).toBe(true);
  });

  test.each([
    "script-src 'unsafe-inline'",
    "script-src data:",
    "script-src http:",
    "script-src ftp:",
    "default-src 'unsafe-inline'",
    "default-src 'UNSAFE-INLINE'",
    "upgrade-insecure-requests",
    "script-src 'none'",
    "script-src https:",
    "script-src https://mozilla.org https:",
    "default-src https://mozilla.org https:",
    "default-src 'none'; script-src *",
    "default-src *; script-src *; object-src 'none'",
    "default-src 'none'; script-src 'none'; object-src *",
    "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'",
    "default-src 'none'; script-src 'unsafe-inline' http:",
    "object-src https:; script-src 'none'",
  ])("unsafe inline: %s", (value) => {
    const result = csp(value);
    expect(result.result).toBe(Expectation.CspImplementedWithUnsafeInline);
    expect(result.pass).toBe(false);
    expect(result.policy?.unsafeInline).toBe(true);
  });

  test("unsafe eval", () => {
    const result = csp("default-src 'none'; script-src 'unsafe-eval'");
    expect(result.result).toBe(Expectation.CspImplementedWithUnsafeEval);
    expect(result.data?.["script-src"]).toEqual(["'unsafe-eval'"]);
    expect(result.pass).toBe(false);
    expect(result.policy?.unsafeEval).toBe(true);
  });

  test.each([
    "object-src 'none'; script-src 'none'; style-src 'unsafe-inline'",
    "default-src 'none'; script-src https://mozilla.org; style-src 'unsafe-inline'",
    "default-src 'unsafe-inline'; script-src https://mozilla.org",
    "default-src 'none';;; ;;;style-src 'self' 'unsafe-inline'",
    "default-src 'none'; style-src data:",
    "default-src 'none'; style-src *",
    "default-src 'none'; style-src https:",
    "default-src 'none'; style-src 'unsafe-inline'; " +
      "script-src 'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBB=' " +
      "'unsafe-inline'",
  ])("unsafe inline in style src only: %s", (value) => {
    const result = csp(value);
    expect(result.result).toBe(Expectation.CspImplementedWithUnsafeInlineInStyleSrcOnly);
    expect(result.pass).toBe(true);
    expect(result.policy?.unsafeInlineStyle).toBe(true);
  });

  test.each([
    "default-src https://mozilla.org",
    "default-src https://mozilla.org;;; ;;;script-src 'none'",
    "object-src 'none'; script-src https://mozilla.org; style-src https://mozilla.org; upgrade-insecure-requests;",
    "object-src 'none'; script-src 'strict-dynamic' 'nonce-abc' 'unsafe-inline'; style-src 'none'",
    "object-src 'none'; style-src 'self';script-src 'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBA='",
    "object-src 'none'; style-src 'self'; script-src 'unsafe-inline' " +
      "'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBA='" +
      "'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBB='",
    "object-src 'none'; script-src 'unsafe-inline' 'nonce-abc123' 'unsafe-inline'; style-src 'none'",
    "default-src https://mozilla.org; style-src 'unsafe-inline' 'nonce-abc123' 'unsafe-inline'",
    "default-src https://mozilla.org; style-src 'unsafe-inline' " +
      "'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBB=' 'unsafe-inline'",
  ])("no unsafe: %s", (value) => {
    const result = csp(value);
    expect(result.result).toBe(Expectation.CspImplementedWithNoUnsafe);
    expect(result.pass).toBe(true);
  });

  test.each([
    ["test_parse_http_equiv_headers_csp2", "default-src http:", 2, true, true],
    [undefined, "default-src", 1, true, false],
    [
      undefined,
      "default-src 'none'; script-src 'strict-dynamic' 'nonce-abc123' 'unsafe-inline'",
      1,
      true,
      false,
    ],
    [
      undefined,
      "default-src 'none'; script-src https://mozilla.org; style-src https://mozilla.org; upgrade-insecure-requests;",
      1,
      true,
      false,
    ],
    [undefined, "default-src 'none'; object-src https://mozilla.org", 1, true, false],
    ["test_parse_http_equiv_headers_csp1", undefined, 1, false, true],
    ["test_parse_http_equiv_headers_csp_multiple_http_equiv1", undefined, 4, false, true],
    ["test_parse_http_equiv_headers_csp1", "default-src 'none'", 2, true, true],
    ["test_parse_http_equiv_headers_csp2", "default-src 'none'", 2, true, true],
    ["test_parse_http_equiv_headers_csp1", "img-src 'none'", 2, true, true],
  ] as const)("no unsafe default src none: %s + header %s", (file, header, numPolicies, http, meta) => {
    const headers: HeaderMap = header === undefined ? {} : { "content-security-policy": [header] };
    const result = contentSecurityPolicyTest(emptyRequests(file, headers));
    expect(result.result).toBe(Expectation.CspImplementedWithNoUnsafeDefaultSrcNone);
    expect(result.numPolicies).toBe(numPolicies);
    expect(result.http).toBe(http);
    expect(result.meta).toBe(meta);
    expect(result.pass).toBe(true);
  });

  test.each([
    "default-src 'none'; script-src 'strict-dynamic' 'nonce-abc123'",
    "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123'",
    "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123' https://*",
    "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123' 'unsafe-inline'",
  ])("strict dynamic: %s", (value) => {
    const result = csp(value);
    expect(result.result).toBe(Expectation.CspImplementedWithNoUnsafeDefaultSrcNone);
    expect(result.policy?.strictDynamic).toBe(true);
  });

  describe("policy analysis", () => {
    test.each(["default-src 'none'", "frame-ancestors *", "frame-ancestors http:", "frame-ancestors https:"])(
      "no anti-clickjacking: %s",
      (value) => {
        expect(csp(value).policy?.antiClickjacking).toBe(false);
      },
    );
    test("anti-clickjacking: default-src *; frame-ancestors 'none'", () => {
      expect(csp("default-src *; frame-ancestors 'none'").policy?.antiClickjacking).toBe(true);
    });
    test.each([
      "default-src 'none'; base-uri *; object-src *",
      "default-src 'none'; base-uri https:; object-src https:",
      "default-src *",
    ])("insecureBaseUri and unsafeObjects: %s", (value) => {
      const policy = csp(value).policy;
      expect(policy?.insecureBaseUri).toBe(true);
      expect(policy?.unsafeObjects).toBe(true);
    });
    test.each([
      "default-src *; base-uri 'none'",
      "default-src 'none'; base-uri 'self'",
      "default-src 'none'; base-uri https://mozilla.org",
    ])("base-uri restricted: %s", (value) => {
      expect(csp(value).policy?.insecureBaseUri).toBe(false);
    });
    test.each([
      "default-src * http: https: data: 'unsafe-inline' 'unsafe-eval'",
      "default-src 'none'; img-src http:",
      "default-src 'none' https://mozilla.org; img-src http://mozilla.org",
      "default-src https:; media-src http://mozilla.org; script-src http:",
    ])("insecureSchemePassive: %s", (value) => {
      expect(csp(value).policy?.insecureSchemePassive).toBe(true);
    });
    test.each([
      "default-src *; form-action 'none'",
      "default-src *; form-action 'self'",
      "default-src 'none'; form-action 'self' https://mozilla.org",
      "form-action 'self' https://mozilla.org",
    ])("form-action restricted: %s", (value) => {
      expect(csp(value).policy?.insecureFormAction).toBe(false);
    });
    test.each(["default-src *", "default-src 'none'", "form-action https:"])(
      "insecureFormAction: %s",
      (value) => {
        expect(csp(value).policy?.insecureFormAction).toBe(true);
      },
    );
  });

  test("report only", () => {
    const result = contentSecurityPolicyTest(
      emptyRequests(undefined, {
        "content-security-policy-report-only": ["default-src 'none'; report-to /_/csp-reports"],
      }),
    );
    expect(result.result).toBe(Expectation.CspNotImplementedButReportingEnabled);
  });

  test("multiple CSP headers combined per RFC 9110 are not treated as invalid", () => {
    const result = csp("default-src 'none'; script-src 'self', default-src 'none'; script-src 'self'");
    expect(result.result).not.toBe(Expectation.CspHeaderInvalid);
    expect(result.numPolicies).toBe(2);
    expect(result.pass).toBe(true);
    expect(result.data).toEqual({ "default-src": ["'none'"], "script-src": ["'self'"] });
  });

  test("multiple CSP headers with differing policies produce correct intersection", () => {
    const result = csp(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline', " +
        "default-src 'none'; style-src 'self', " +
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'",
    );
    expect(result.result).not.toBe(Expectation.CspHeaderInvalid);
    expect(result.numPolicies).toBe(3);
    expect(result.policy?.unsafeInlineStyle).toBe(false);
    expect(result.pass).toBe(true);
    expect(result.data).toEqual({
      "default-src": ["'none'"],
      "script-src": ["'self'"],
      "style-src": ["'self'"],
    });
  });

  test("ignore frame-anchestors in http-equiv", () => {
    let result = contentSecurityPolicyTest(emptyRequests("test_parse_http_equiv_headers_not_allowed"));
    expect(result.result).toBe(Expectation.CspNotImplemented);
    expect(result.pass).toBe(false);
    result = contentSecurityPolicyTest(
      emptyRequests("test_parse_http_equiv_headers_not_allowed", {
        "content-security-policy": ["frame-anchestors 'none'"],
      }),
    );
    expect(result.result).toBe(Expectation.CspImplementedWithUnsafeInline);
    expect(result.pass).toBe(false);
  });
});

describe("Content Security Policy Parser (test/csp-parser.test.js)", () => {
  const asMap = (o: Record<string, string[]>) => new Map(Object.entries(o).map(([k, v]) => [k, new Set(v)]));
  test.each([
    [["default-src 'none'"], { "default-src": ["'none'"] }],
    [
      ["default-src 'none'; script-src 'self' https://mozilla.org"],
      { "default-src": ["'none'"], "script-src": ["'self'", "https://mozilla.org"] },
    ],
    [
      [
        "default-src 'none'; script-src 'self' https://mozilla.org",
        "default-src 'none'; script-src 'self' https://mozilla.org",
      ],
      { "default-src": ["'none'"], "script-src": ["'self'", "https://mozilla.org"] },
    ],
    [
      [
        "default-src 'none'; script-src 'self' https://mozilla.org",
        "default-src 'none'; script-src 'self' https://mozilla.org https://example.com",
      ],
      { "default-src": ["'none'"], "script-src": ["'self'", "https://mozilla.org"] },
    ],
    [
      [
        "default-src 'none'; script-src 'self' https://mozilla.org",
        "default-src 'none'; script-src https://example.com 'self' https://mozilla.org",
      ],
      { "default-src": ["'none'"], "script-src": ["'self'", "https://mozilla.org"] },
    ],
    [["default-src https://mozilla.org", "default-src https://mozilla.com"], { "default-src": ["'none'"] }],
    [
      [
        "default-src https://mozilla.org https://mozilla.net",
        "default-src https://mozilla.com https://mozilla.io",
      ],
      { "default-src": ["'none'"] },
    ],
    [
      [
        "default-src https://mozilla.org https://mozilla.net https://mozilla.com https://mozilla.io",
        "default-src https://mozilla.pizza https://mozilla.ninja https://mozilla.net https://mozilla.org",
      ],
      { "default-src": ["https://mozilla.net", "https://mozilla.org"] },
    ],
    [
      [
        "default-src https://mozilla.org https://mozilla.net https://mozilla.com https://mozilla.io",
        "default-src https://mozilla.pizza https://mozilla.ninja https://mozilla.net https://mozilla.org",
        "default-src https://mozilla.net https://mozilla.fox https://mozilla.fire https://mozilla.org",
        "default-src https://mozilla.browser https://mozilla.web https://mozilla.net https://mozilla.org",
      ],
      { "default-src": ["https://mozilla.net", "https://mozilla.org"] },
    ],
    [
      ["default-src https://mozilla.org/fire", "default-src https://mozilla.org/firefox/"],
      { "default-src": ["'none'"] },
    ],
    [
      ["default-src https://mozilla.org/firefox/", "default-src https://mozilla.org/firefox/download/"],
      { "default-src": ["https://mozilla.org/firefox/download/"] },
    ],
    [
      ["default-src https://mozilla.org/firefox/download/", "default-src https://mozilla.org/firefox/"],
      { "default-src": ["https://mozilla.org/firefox/download/"] },
    ],
    [["default-src http:", "default-src https:"], { "default-src": ["'none'"] }],
    [["default-src http: http:", "default-src https: https:"], { "default-src": ["'none'"] }],
  ])("should parse policy correctly: %j", (policies, expected) => {
    expect(parseCsp(policies)).toEqual(asMap(expected));
  });

  test.each([
    "  ",
    "\r\n",
    "\r\n\r\n\r\n\r\n\r\n\r\n",
    "",
    "default-src 'none'; default-src 'none'",
    "default-src 'none'; img-src 'self'; default-src 'none'",
    "defa",
  ])("should throw error for invalid policies: %j", (policy) => {
    expect(() => parseCsp([policy])).toThrow();
  });

  test("should parse this example header correctly", () => {
    const res = parseCsp([
      "default-src 'self' blob: https://*.cnn.com:* http://*.cnn.com:* *.cnn.io:* *.cnn.net:* *.turner.com:* *.turner.io:* *.ugdturner.com:* courageousstudio.com *.vgtf.net:*; script-src 'unsafe-eval' 'unsafe-inline' 'self' *; style-src 'unsafe-inline' 'self' blob: *; child-src 'self' blob: *; frame-src 'self' *; object-src 'self' *; img-src 'self' data: blob: *; media-src 'self' data: blob: *; font-src 'self' data: *; connect-src 'self' data: *; frame-ancestors 'self' https://*.cnn.com:* http://*.cnn.com https://*.cnn.io:* http://*.cnn.io:* *.turner.com:* courageousstudio.com;",
    ]);
    expect(res.size).toBeGreaterThan(0);
  });

  test.each([
    [
      "report-uri https://www.dropbox.com/csp_log?policy_name=metaserver-whitelist ; report-uri https://www.dropbox.com/csp_log?policy_name=metaserver-dynamic",
      "report-uri",
    ],
    ["report-to some_name ; report-to some_other_name", "report-to"],
  ])("should parse a policy with duplicate %s entries and report those duplicates", (policy, key) => {
    const res = parseCsp([policy]);
    expect(res.get(DUPLICATE_WARNINGS_KEY)?.has(key)).toBe(true);
  });
});

describe("X-Frame-Options (test/x-frame-options.test.js)", () => {
  const xfo = (headers: HeaderMap, file = "test_content_sri_no_scripts") =>
    xFrameOptionsTest(emptyRequests(file, headers));
  test("checks for missing", () => {
    const result = xfo({});
    expect(result.result).toBe(Expectation.XFrameOptionsNotImplemented);
    expect(result.pass).toBe(false);
  });
  test.each(["whimsy", "SAMEORIGIN, SAMEORIGIN"])("checks validity: %s", (value) => {
    const result = xfo({ "x-frame-options": [value] });
    expect(result.result).toBe(Expectation.XFrameOptionsHeaderInvalid);
    expect(result.pass).toBe(false);
  });
  test("checks allow from origin", () => {
    const result = xfo({ "x-frame-options": ["ALLOW-FROM https://mozilla.org"] });
    expect(result.result).toBe(Expectation.XFrameOptionsAllowFromOrigin);
    expect(result.pass).toBe(true);
  });
  test.each(["DENY", "SAMEORIGIN"])("checks deny: %s scores +5", (value) => {
    const result = xfo({ "x-frame-options": [value] });
    expect(result.result).toBe(Expectation.XFrameOptionsSameoriginOrDeny);
    expect(getScoreModifier(result.result)).toBe(5);
    expect(result.pass).toBe(true);
  });
  test("checks implemented via CSP", () => {
    const result = xfo({
      "x-frame-options": ["DENY"],
      "content-security-policy": ["frame-ancestors https://mozilla.org"],
    });
    expect(result.result).toBe(Expectation.XFrameOptionsImplementedViaCsp);
    expect(result.pass).toBe(true);
  });
  test("does not obey x-frame-options in meta equiv tags", () => {
    const result = xfo({}, "test_parse_http_equiv_headers_x_frame_options");
    expect(result.result).toBe(Expectation.XFrameOptionsNotImplemented);
    expect(result.pass).toBe(false);
  });
});

describe("Strict Transport Security (test/strict-transport-security.test.js)", () => {
  const sts = (value?: string, url?: string) =>
    strictTransportSecurityTest(
      emptyRequests(undefined, value === undefined ? {} : { "strict-transport-security": [value] }, url),
    );
  test("missing", () => {
    const result = sts();
    expect(result.result).toBe(Expectation.HstsNotImplemented);
    expect(result.pass).toBe(false);
  });
  test.each([
    "includeSubDomains; preload",
    "max-age=15768000; includeSubDomains, max-age=15768000; includeSubDomains",
  ])("header invalid: %s", (value) => {
    const result = sts(value);
    expect(result.result).toBe(Expectation.HstsHeaderInvalid);
    expect(result.pass).toBe(false);
  });
  test("no https (the page answered over http://)", () => {
    const result = sts("max-age=15768000", "http://mozilla.org/");
    expect(result.result).toBe(Expectation.HstsNotImplementedNoHttps);
    expect(result.pass).toBe(false);
  });
  test("max age too low", () => {
    const result = sts("max-age=86400");
    expect(result.result).toBe(Expectation.HstsImplementedMaxAgeLessThanSixMonths);
    expect(result.pass).toBe(false);
  });
  test("implemented", () => {
    const result = sts("max-age=15768000; includeSubDomains; preload");
    expect(result.result).toBe(Expectation.HstsImplementedMaxAgeAtLeastSixMonths);
    expect(result.maxAge).toBe(15_768_000);
    expect(result.includeSubDomains).toBe(true);
    expect(result.preload).toBe(true);
    expect(result.pass).toBe(true);
  });
});

describe("X-Content-Type-Options (test/x-content-type-options.test.js)", () => {
  const xcto = (value?: string) =>
    xContentTypeOptionsTest(
      emptyRequests(undefined, value === undefined ? {} : { "x-content-type-options": [value] }),
    );
  test("checks for missing", () => {
    const result = xcto();
    expect(result.result).toBe(Expectation.XContentTypeOptionsNotImplemented);
    expect(result.pass).toBe(false);
  });
  test.each(["whimsy", "nosniff, nosniff"])("checks header validity: %s", (value) => {
    const result = xcto(value);
    expect(result.result).toBe(Expectation.XContentTypeOptionsHeaderInvalid);
    expect(result.pass).toBe(false);
  });
  test.each(["nosniff", "nosniff "])("checks for nosniff: %j", (value) => {
    const result = xcto(value);
    expect(result.result).toBe(Expectation.XContentTypeOptionsNosniff);
    expect(result.pass).toBe(true);
  });
});

describe("ReferrerPolicy (test/referrer-policy.test.js)", () => {
  const rp = (value?: string, file?: string) =>
    referrerPolicyTest(emptyRequests(file, value === undefined ? {} : { "referrer-policy": [value] }));
  test.each([
    "no-referrer",
    "same-origin",
    "strict-origin",
    "STRICT-ORIGIN",
    "strict-origin-when-cross-origin",
  ])("checks for private referrer header: %s", (value) => {
    const result = rp(value);
    expect(result.result).toBe(Expectation.ReferrerPolicyPrivate);
    expect(result.http).toBe(true);
    expect(result.meta).toBe(false);
    expect(result.pass).toBe(true);
  });
  test("private referrer from a meta tag", () => {
    const result = rp(undefined, "test_parse_http_equiv_headers_referrer1");
    expect(result.result).toBe(Expectation.ReferrerPolicyPrivate);
    expect(result.data).toBe("no-referrer, same-origin");
    expect(result.http).toBe(false);
    expect(result.meta).toBe(true);
    expect(result.pass).toBe(true);
  });
  test("the meta tag has precedence over the header", () => {
    const result = rp("unsafe-url", "test_parse_http_equiv_headers_referrer1");
    expect(result.result).toBe(Expectation.ReferrerPolicyPrivate);
    expect(result.data).toBe("unsafe-url, no-referrer, same-origin");
    expect(result.http).toBe(true);
    expect(result.meta).toBe(true);
    expect(result.pass).toBe(true);
  });
  test("checks for missing referrer header", () => {
    const result = rp();
    expect(result.result).toBe(Expectation.ReferrerPolicyNotImplemented);
    expect(result.pass).toBe(true);
  });
  test("checks for invalid referrer header", () => {
    const result = rp("whimsy");
    expect(result.result).toBe(Expectation.ReferrerPolicyHeaderInvalid);
    expect(result.pass).toBe(false);
  });
  test.each([
    ["origin", Expectation.ReferrerPolicyUnsafe, false],
    ["origin-when-cross-origin", Expectation.ReferrerPolicyUnsafe, false],
    ["unsafe-url", Expectation.ReferrerPolicyUnsafe, false],
    ["origin-when-cross-origin, no-referrer, unsafe-url", Expectation.ReferrerPolicyUnsafe, false],
    ["no-referrer, unsafe-url", Expectation.ReferrerPolicyUnsafe, false],
    ["no-referrer, whimsy", Expectation.ReferrerPolicyPrivate, true],
    ["whimsy, whimsy1, whimsy2", Expectation.ReferrerPolicyHeaderInvalid, false],
  ])("%s → %s", (value, expected, pass) => {
    const result = rp(value);
    expect(result.result).toBe(expected);
    expect(result.pass).toBe(pass);
  });
});

describe("Cross Origin Resource Policy (test/cross-origin-resource-policy.test.js)", () => {
  test.each([
    [undefined, Expectation.CrossOriginResourcePolicyNotImplemented, true],
    ["whimsy", Expectation.CrossOriginResourcePolicyHeaderInvalid, false],
    ["same-site", Expectation.CrossOriginResourcePolicyImplementedWithSameSite, true],
    ["same-origin", Expectation.CrossOriginResourcePolicyImplementedWithSameOrigin, true],
    ["cross-origin", Expectation.CrossOriginResourcePolicyImplementedWithCrossOrigin, true],
  ])("%s → %s", (value, expected, pass) => {
    const result = crossOriginResourcePolicyTest(
      emptyRequests(undefined, value === undefined ? {} : { "cross-origin-resource-policy": [value] }),
    );
    expect(result.result).toBe(expected);
    expect(result.pass).toBe(pass);
  });
});

describe("Cookies (test/cookies.test.js)", () => {
  const cookies = (setCookie: string[], hsts?: string) =>
    cookiesTest(
      emptyRequests(undefined, {
        "set-cookie": setCookie,
        ...(hsts ? { "strict-transport-security": [hsts] } : {}),
      }),
    );
  test("detects no cookies found", () => {
    const res = cookiesTest(emptyRequests());
    expect(res.pass).toBe(true);
    expect(res.result).toBe("cookies-not-found");
  });
  test("checks secure with httponly sessions", () => {
    const res = cookies([
      "SESSIONID=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly",
      "foo=bar; Domain=mozilla.org; Secure; Path=/",
      "heroku-session-affinity=bar; Domain=mozilla.org; Path=/",
    ]);
    expect(res.result).toBe(Expectation.CookiesSecureWithHttponlySessions);
    expect(res.sameSite).toBe(false);
  });
  test("checks secure with httponly sessions and samesite", () => {
    const res = cookies([
      "SESSIONID_SAMESITE_STRICT=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=Strict",
      "SESSIONID_SAMESITE_LAX=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=Lax",
      "SESSIONID_SAMESITE_NONE=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=None",
    ]);
    expect(Object.fromEntries(Object.entries(res.data ?? {}).map(([k, c]) => [k, c.sameSite]))).toEqual({
      SESSIONID_SAMESITE_STRICT: "strict",
      SESSIONID_SAMESITE_LAX: "lax",
      SESSIONID_SAMESITE_NONE: "none",
    });
    expect(res.pass).toBe(true);
    expect(res.sameSite).toBe(true);
  });
  test("checks secure with httponly sessions and samesite not awarded if not all cookies samesite", () => {
    const res = cookies([
      "SESSIONID_SAMESITE_STRICT=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=Strict",
      "SESSIONID_SAMESITE_NO_SAMESITE=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly",
      "SESSIONID_SAMESITE_LAX=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=Lax",
      "SESSIONID_SAMESITE_NONE=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=None",
    ]);
    expect(Object.fromEntries(Object.entries(res.data ?? {}).map(([k, c]) => [k, c.sameSite]))).toEqual({
      SESSIONID_SAMESITE_STRICT: "strict",
      SESSIONID_SAMESITE_NO_SAMESITE: undefined,
      SESSIONID_SAMESITE_LAX: "lax",
      SESSIONID_SAMESITE_NONE: "none",
    });
    expect(res.pass).toBe(true);
    expect(res.sameSite).toBe(false);
  });
  test.each([
    [
      ["CSRFTOKEN=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly"],
      undefined,
      Expectation.CookiesAnticsrfWithoutSamesiteFlag,
    ],
    [
      ["SESSIONID=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite="],
      undefined,
      Expectation.CookiesSamesiteFlagInvalid,
    ],
    [
      ["SESSIONID=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=True"],
      undefined,
      Expectation.CookiesSamesiteFlagInvalid,
    ],
    [
      ["SESSIONID=bar; Domain=mozilla.org; Path=/; Secure; HttpOnly; SameSite=Invalid"],
      undefined,
      Expectation.CookiesSamesiteFlagInvalid,
    ],
    [
      ["foo=bar; Domain=mozilla.org; Path=/"],
      "max-age=15768000",
      Expectation.CookiesWithoutSecureFlagButProtectedByHsts,
    ],
    [
      ["SESSIONID=bar; Domain=mozilla.org; Path=/; HttpOnly"],
      "max-age=15768000",
      Expectation.CookiesSessionWithoutSecureFlagButProtectedByHsts,
    ],
    [["foo=bar; Domain=mozilla.org; Path=/"], undefined, Expectation.CookiesWithoutSecureFlag],
    [
      ["SESSIONID=bar; Domain=mozilla.org; Path=/; Secure"],
      undefined,
      Expectation.CookiesSessionWithoutHttponlyFlag,
    ],
    [
      ["SESSIONID=bar; Domain=mozilla.org; Path=/; HttpOnly"],
      undefined,
      Expectation.CookiesSessionWithoutSecureFlag,
    ],
    [["SESSIONID=bar; Domain=mozilla.org; Path=/"], undefined, Expectation.CookiesSessionWithoutSecureFlag],
  ])("%j (HSTS %s) → %s", (setCookie, hsts, expected) => {
    const res = cookies(setCookie, hsts);
    expect(res.result).toBe(expected);
    expect(res.pass).toBe(false);
    expect(res.sameSite).toBe(false);
  });
});

describe("Subresource Integrity (test/subresource-integrity.test.js)", () => {
  test.each([
    ["test_content_sri_no_scripts", Expectation.SriNotImplementedButNoScriptsLoaded, true],
    ["test_content_sri_sameorigin1", Expectation.SriNotImplementedButAllScriptsLoadedFromSecureOrigin, true],
    ["test_content_sri_sameorigin3", Expectation.SriNotImplementedAndExternalScriptsNotLoadedSecurely, false],
    ["test_content_sri_sameorigin2", Expectation.SriNotImplementedButAllScriptsLoadedFromSecureOrigin, true],
    [
      "test_content_sri_impl_external_https1",
      Expectation.SriImplementedAndExternalScriptsLoadedSecurely,
      true,
    ],
    [
      "test_content_sri_impl_external_https2",
      Expectation.SriImplementedAndExternalScriptsLoadedSecurely,
      true,
    ],
    ["test_content_sri_impl_sameorigin", Expectation.SriImplementedAndAllScriptsLoadedSecurely, true],
    [
      "test_content_sri_notimpl_external_https",
      Expectation.SriNotImplementedButExternalScriptsLoadedSecurely,
      false,
    ],
    [
      "test_content_sri_impl_external_http",
      Expectation.SriImplementedButExternalScriptsNotLoadedSecurely,
      false,
    ],
    [
      "test_content_sri_impl_external_noproto",
      Expectation.SriImplementedButExternalScriptsNotLoadedSecurely,
      false,
    ],
    [
      "test_content_sri_notimpl_external_http",
      Expectation.SriNotImplementedAndExternalScriptsNotLoadedSecurely,
      false,
    ],
    [
      "test_content_sri_notimpl_external_noproto",
      Expectation.SriNotImplementedAndExternalScriptsNotLoadedSecurely,
      false,
    ],
  ])("%s → %s", (file, expected, pass) => {
    const result = subresourceIntegrityTest(emptyRequests(file));
    expect(result.result).toBe(expected);
    expect(result.pass).toBe(pass);
  });
  test("checks for not html", () => {
    const result = subresourceIntegrityTest(
      emptyRequests(undefined, { "content-type": ["application/json"] }),
    );
    expect(result.result).toBe(Expectation.SriNotImplementedResponseNotHtml);
    expect(result.pass).toBe(true);
  });
});

describe("Redirections (test/redirection.test.js)", () => {
  const route = (...hops: [string, number][]): RouteHop[] =>
    hops.map(([url, status]) => ({ url: new URL(url), status }));
  test.each([
    ["redirection missing", route(["http://mozilla.org", 200]), Expectation.RedirectionMissing, false],
    [
      "redirection not to https",
      route(["http://mozilla.org", 301], ["http://www.mozilla.org", 200]),
      Expectation.RedirectionNotToHttps,
      false,
    ],
    [
      "longer chains not to https",
      route(
        ["http://mozilla.org", 301],
        ["http://www.mozilla.org", 302],
        ["http://www.mozilla.org/en/", 200],
      ),
      Expectation.RedirectionNotToHttps,
      false,
    ],
    [
      "proper redirection to https",
      route(["http://mozilla.org/", 301], ["https://mozilla.org/", 301], ["https://www.mozilla.org/", 200]),
      Expectation.RedirectionToHttps,
      true,
    ],
    [
      "proper redirection to https with port number",
      route(["http://mozilla.org/", 301], ["https://mozilla.org:8443/", 200]),
      Expectation.RedirectionToHttps,
      true,
    ],
    [
      "first redirection to http",
      route(
        ["http://mozilla.org/", 301],
        ["http://www.mozilla.org/", 301],
        ["https://www.mozilla.org/", 200],
      ),
      Expectation.RedirectionNotToHttpsOnInitialRedirection,
      false,
    ],
    [
      "first redirection off host",
      route(["http://mozilla.org/", 301], ["https://www.mozilla.org/", 200]),
      Expectation.RedirectionOffHostFromHttp,
      false,
    ],
  ])("checks for %s", (_, hops, expected, pass) => {
    const res = redirectionTest(hops);
    expect(res.result).toBe(expected);
    expect(res.pass).toBe(pass);
  });
  test("keeps the route", () => {
    expect(
      redirectionTest(route(["http://mozilla.org/", 301], ["https://mozilla.org:8443/", 200])).route,
    ).toEqual(["http://mozilla.org/", "https://mozilla.org:8443/"]);
  });
});

describe("Grader (test/grader.test.js)", () => {
  test("gets the score modifier", () => {
    expect(getScoreModifier(Expectation.CspNotImplemented)).toBe(-25);
  });
  test.each([
    [100, { score: 100, grade: "A+" }],
    [0, { score: 0, grade: "F" }],
    [120, { score: 120, grade: "A+" }],
    [-10, { score: 0, grade: "F" }],
  ])("gets the grade for %i", (score, expected) => {
    expect(getGradeForScore(score)).toEqual(expected);
  });
});

test.skip.each(NOT_PORTED)("not ported: %s", () => {});
