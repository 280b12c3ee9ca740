/**
 * Security headers of the HTML pages. The Content-Security-Policy allows scripts only with the per-request
 * nonce ('strict-dynamic' lets those scripts load Next's chunks); styles keep 'unsafe-inline' because React
 * renders `style` attributes, which a nonce cannot cover.
 */
export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean } = {}): string {
  const script = [`'self'`, `'nonce-${nonce}'`, `'strict-dynamic'`, ...(opts.dev ? [`'unsafe-eval'`] : [])];
  return [
    `default-src 'self'`,
    `script-src ${script.join(" ")}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' blob: data:`,
    `font-src 'self'`,
    `connect-src 'self'`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
    ...(opts.dev ? [] : ["upgrade-insecure-requests"]),
  ].join("; ");
}

/** Headers every response of the site carries, API included (set in next.config.ts). */
export const STATIC_SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

export const HSTS_VALUE = "max-age=63072000; includeSubDomains";

/**
 * next-auth's own HTML pages (/api/authjs/signout, /api/authjs/error): no script, inline styles, one form that
 * posts back to the site. Nothing may frame them, as nothing may frame the dashboard.
 */
export const AUTH_PAGE_CSP = [
  `default-src 'none'`,
  `style-src 'unsafe-inline'`,
  `img-src 'self' data:`,
  `form-action 'self'`,
  `frame-ancestors 'none'`,
  `base-uri 'none'`,
].join("; ");
