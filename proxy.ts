import { type NextRequest, NextResponse } from "next/server";
import { PAGE_PATH_HEADER } from "@/lib/auth/page-path";
import { contentSecurityPolicy } from "@/lib/security/headers";

// Pages only: the API answers JSON with its own headers, and static assets need no per-request nonce.
export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
  ],
};

/** A fresh nonce per page view; Next reads it from the request's CSP header and puts it on its scripts. */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  // The page's own address, so that a signed-out visit can be sent back here after sign-in (lib/auth/session.ts).
  requestHeaders.set(PAGE_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  return response;
}
