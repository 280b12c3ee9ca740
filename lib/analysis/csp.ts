import { clip, headerValues } from "./check";
import { createSecurityTest, type SecurityTest, showHeader } from "./security-test";
import type { ParsedPage } from "./types";

export interface CspPolicy {
  source: "header" | "meta";
  raw: string;
  /** Directive name (lower-case) → source expressions; the first occurrence of a directive wins, per CSP3. */
  directives: Map<string, string[]>;
}

const KNOWN_DIRECTIVES = new Set(
  (
    "default-src script-src script-src-elem script-src-attr style-src style-src-elem style-src-attr img-src " +
    "font-src connect-src media-src object-src frame-src child-src worker-src manifest-src prefetch-src " +
    "fenced-frame-src base-uri form-action frame-ancestors navigate-to report-uri report-to sandbox webrtc " +
    "upgrade-insecure-requests block-all-mixed-content require-trusted-types-for trusted-types plugin-types"
  ).split(" "),
);

export function parseCsp(raw: string, source: CspPolicy["source"]): CspPolicy {
  const directives = new Map<string, string[]>();
  for (const part of raw.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    const key = name?.toLowerCase() ?? "";
    // Browsers skip directives they do not know; a policy of only those enforces nothing.
    if (!KNOWN_DIRECTIVES.has(key)) continue;
    if (!directives.has(key))
      directives.set(
        key,
        values.map((v) => (v.startsWith("'") ? v.toLowerCase() : v)),
      );
  }
  return { source, raw, directives };
}

/** Every enforced policy: each header value (a comma separates policies) and each <meta http-equiv> policy. */
export function collectCspPolicies(page: ParsedPage): CspPolicy[] {
  const fromHeaders = headerValues(page.headers, "content-security-policy")
    .flatMap((v) => v.split(","))
    .filter((v) => v.trim())
    .map((v) => parseCsp(v, "header"));
  const fromMeta = page
    .$('meta[http-equiv="content-security-policy" i]')
    .toArray()
    .map((el) => el.attribs.content ?? "")
    .filter((v) => v.trim())
    .map((v) => parseCsp(v, "meta"));
  return [...fromHeaders, ...fromMeta];
}

/** Sources governing a fetch directive, falling back to default-src; undefined means unrestricted. */
export function effectiveSources(
  policy: CspPolicy,
  directive: "script-src" | "style-src",
): string[] | undefined {
  return policy.directives.get(directive) ?? policy.directives.get("default-src");
}

/** frame-ancestors only works from a header (browsers ignore it in <meta>) and must not allow everyone. */
export function hasFrameAncestorsProtection(policies: CspPolicy[]): boolean {
  return policies.some((p) => {
    const fa = p.directives.get("frame-ancestors");
    return (
      p.source === "header" &&
      fa !== undefined &&
      !fa.some((s) => s === "*" || s === "https:" || s === "http:")
    );
  });
}

const BROAD_SCRIPT_SOURCES = new Set(["*", "http:", "https:", "data:", "blob:", "filesystem:"]);

export function checkCsp(page: ParsedPage, policies: CspPolicy[]): SecurityTest {
  const headerValuesShown = showHeader(
    "content-security-policy",
    headerValues(page.headers, "content-security-policy"),
  );
  const metaPolicies = policies.filter((p) => p.source === "meta");
  const evidence = [
    ...headerValuesShown,
    ...metaPolicies.map((p) => `<meta http-equiv="Content-Security-Policy">: ${clip(p.raw, 200)}`),
  ];
  if (policies.length === 0) {
    const reportOnly = headerValues(page.headers, "content-security-policy-report-only").length > 0;
    const message = reportOnly
      ? "Only Content-Security-Policy-Report-Only is sent, which enforces nothing. Enforce the policy with Content-Security-Policy once its reports are clean."
      : "No Content-Security-Policy. Add one that limits where scripts load from (start with `default-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'self'`).";
    return createSecurityTest("csp", "fail", -25, message, evidence);
  }
  if (policies.every((p) => p.directives.size === 0)) {
    return createSecurityTest(
      "csp",
      "fail",
      -25,
      "The Content-Security-Policy has no recognisable directives, so browsers enforce nothing. Fix its syntax (`directive source …; …`).",
      evidence,
    );
  }
  // With several policies a script must pass all of them, so a weakness only counts if every policy has it.
  const everyPolicy = (pred: (p: CspPolicy) => boolean) => policies.every(pred);
  const scriptSources = (p: CspPolicy) => effectiveSources(p, "script-src");
  if (everyPolicy((p) => scriptSources(p) === undefined)) {
    return createSecurityTest(
      "csp",
      "fail",
      -20,
      "The policy has neither script-src nor default-src, so scripts may load from anywhere. Add `script-src 'self'` (or a default-src).",
      evidence,
    );
  }
  if (everyPolicy((p) => allowsInlineScript(scriptSources(p)))) {
    return createSecurityTest(
      "csp",
      "fail",
      -20,
      "script-src allows 'unsafe-inline' (without nonces or hashes) or any origin, which defeats XSS protection. Move inline scripts to files or use nonces/hashes, and list the origins you use.",
      evidence,
    );
  }
  if (everyPolicy((p) => (scriptSources(p) ?? []).some((s) => s.startsWith("http://") || s === "ws:"))) {
    return createSecurityTest(
      "csp",
      "fail",
      -20,
      "script-src allows loading scripts over plain HTTP. Use https: sources only.",
      evidence,
    );
  }
  if (everyPolicy((p) => (scriptSources(p) ?? []).includes("'unsafe-eval'"))) {
    return createSecurityTest(
      "csp",
      "warn",
      -10,
      "script-src allows 'unsafe-eval', letting injected strings run as code. Remove it (refactor eval/new Function uses).",
      evidence,
    );
  }
  if (everyPolicy((p) => (effectiveSources(p, "style-src") ?? []).includes("'unsafe-inline'"))) {
    return createSecurityTest(
      "csp",
      "pass",
      0,
      "The policy restricts scripts well; only style-src allows 'unsafe-inline'. Use nonces or hashes for styles to earn the bonus.",
      evidence,
    );
  }
  if (policies.some((p) => (p.directives.get("default-src") ?? []).join(" ") === "'none'")) {
    return createSecurityTest(
      "csp",
      "pass",
      10,
      "Content-Security-Policy is strict: default-src 'none' with no unsafe sources.",
      evidence,
    );
  }
  return createSecurityTest(
    "csp",
    "pass",
    5,
    "Content-Security-Policy blocks inline and eval'd script. Consider default-src 'none' with explicit allowances for the tightest policy.",
    evidence,
  );
}

function allowsInlineScript(sources: string[] | undefined): boolean {
  if (!sources) return true;
  // CSP2+: a nonce, hash or 'strict-dynamic' makes browsers ignore 'unsafe-inline'.
  const neutralised = sources.some((s) => /^'(nonce-|sha(256|384|512)-|strict-dynamic')/.test(s));
  if (sources.includes("'unsafe-inline'") && !neutralised) return true;
  return !sources.includes("'strict-dynamic'") && sources.some((s) => BROAD_SCRIPT_SOURCES.has(s));
}

export function checkFrameOptions(page: ParsedPage, policies: CspPolicy[]): SecurityTest {
  const values = headerValues(page.headers, "x-frame-options");
  const evidence = showHeader("x-frame-options", values);
  if (hasFrameAncestorsProtection(policies)) {
    const fa = policies.flatMap((p) => p.directives.get("frame-ancestors") ?? []).join(" ");
    return createSecurityTest(
      "x-frame-options",
      "pass",
      5,
      "Framing is restricted with CSP frame-ancestors, which supersedes X-Frame-Options.",
      [...evidence, `frame-ancestors ${fa}`],
    );
  }
  const first = values[0]?.trim().toLowerCase();
  if (first === undefined) {
    return createSecurityTest(
      "x-frame-options",
      "fail",
      -20,
      "Nothing stops other sites from framing this page (clickjacking). Add CSP `frame-ancestors 'self'` or `X-Frame-Options: SAMEORIGIN`.",
      evidence,
    );
  }
  if (first === "deny" || first === "sameorigin") {
    return createSecurityTest(
      "x-frame-options",
      "pass",
      0,
      "X-Frame-Options restricts framing. CSP frame-ancestors is the modern equivalent and earns a bonus.",
      evidence,
    );
  }
  if (first.startsWith("allow-from")) {
    return createSecurityTest(
      "x-frame-options",
      "warn",
      0,
      "X-Frame-Options ALLOW-FROM is ignored by current browsers. Use CSP `frame-ancestors` with the allowed origin instead.",
      evidence,
    );
  }
  return createSecurityTest(
    "x-frame-options",
    "fail",
    -20,
    "X-Frame-Options has an invalid value and is ignored. Use DENY or SAMEORIGIN (or CSP frame-ancestors).",
    evidence,
  );
}
