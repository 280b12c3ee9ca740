import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One Search Console fact: a query's figures on one page, country, device and day. */
export interface FakeSearchRow {
  query: string;
  page: string;
  country: string;
  device: "DESKTOP" | "MOBILE" | "TABLET";
  date: string;
  clicks: number;
  impressions: number;
  position: number;
}

/** One GA4 fact: sessions of a day from a source landing on a page. */
export interface FakeGa4Row {
  date: string;
  sessionSource: string;
  pagePath: string;
  sessions: number;
  totalUsers: number;
  screenPageViews: number;
}

export interface FakeGoogle {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The environment that points the service at this fake. */
  env: Record<string, string>;
  /** Every request: method, path (with query) and the parsed body. */
  requests: { method: string; path: string; body: unknown }[];
  /** Token endpoint calls by grant type. */
  tokenCalls: { authorization_code: number; refresh_token: number };
  /** The user revokes the app at Google: every token of the grant stops working. */
  revokeAll(): void;
  /** Time passes: every access token issued so far expires. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const EMAIL = "owner@acme-coffee.com";

function idToken(): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "RS256", kid: "fake" })}.${part({ iss: "https://accounts.google.com", email: EMAIL, email_verified: true, sub: "1234567890" })}.${randomBytes(32).toString("base64url")}`;
}

/**
 * Google on 127.0.0.1: the OAuth 2.0 authorization server (consent redirect, code exchange, refresh, revoke),
 * the Search Console API v1 (`webmasters/v3` paths) and the GA4 Data API v1beta REST `runReport`, in their
 * real JSON formats, with Bearer access tokens checked on every API call.
 */
export async function startFakeGoogle(opts: {
  sites: { siteUrl: string; permissionLevel: string }[];
  search: FakeSearchRow[];
  ga4: Record<string, FakeGa4Row[]>;
}): Promise<FakeGoogle> {
  const clientId = "fake-client.apps.googleusercontent.com";
  const clientSecret = "fake-client-secret";
  const requests: FakeGoogle["requests"] = [];
  const tokenCalls = { authorization_code: 0, refresh_token: 0 };
  const codes = new Map<string, string>(); // code → redirect_uri
  const refreshTokens = new Set<string>();
  const accessTokens = new Map<string, number>(); // token → expiry (epoch ms)
  let revoked = false;

  const issueAccess = () => {
    const token = `ya29.${randomBytes(12).toString("hex")}`;
    accessTokens.set(token, Date.now() + 3599_000);
    return token;
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://x");
    const form = req.headers["content-type"]?.includes("x-www-form-urlencoded");
    let body: unknown = null;
    try {
      body = form ? Object.fromEntries(new URLSearchParams(raw)) : raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    requests.push({ method: req.method ?? "GET", path: `${url.pathname}${url.search}`, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(payload));
    };
    const apiError = (code: number, status: string, message: string) =>
      send(code, {
        error: {
          code,
          message,
          status,
          errors: [{ message, domain: "global", reason: status.toLowerCase() }],
        },
      });

    // --- OAuth 2.0 ---------------------------------------------------------------------------------
    if (url.pathname === "/o/oauth2/v2/auth") {
      // The user consents at once: back to the redirect URI with a code and the state untouched.
      const redirect = url.searchParams.get("redirect_uri") ?? "";
      if (
        url.searchParams.get("client_id") !== clientId ||
        url.searchParams.get("response_type") !== "code"
      ) {
        return send(400, { error: "invalid_request" });
      }
      const code = `4/0A${randomBytes(10).toString("hex")}`;
      codes.set(code, redirect);
      const to = new URL(redirect);
      to.searchParams.set("code", code);
      to.searchParams.set("state", url.searchParams.get("state") ?? "");
      to.searchParams.set("scope", url.searchParams.get("scope") ?? "");
      res.writeHead(302, { location: to.toString() });
      return res.end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const p = (body ?? {}) as Record<string, string>;
      if (p.client_id !== clientId || p.client_secret !== clientSecret) {
        return send(401, { error: "invalid_client", error_description: "The OAuth client was not found." });
      }
      if (p.grant_type === "authorization_code") {
        tokenCalls.authorization_code++;
        const redirect = codes.get(p.code ?? "");
        codes.delete(p.code ?? "");
        if (!redirect || redirect !== p.redirect_uri) {
          return send(400, { error: "invalid_grant", error_description: "Malformed auth code." });
        }
        const refresh = `1//0g${randomBytes(16).toString("hex")}`;
        refreshTokens.add(refresh);
        return send(200, {
          access_token: issueAccess(),
          expires_in: 3599,
          refresh_token: refresh,
          scope:
            "https://www.googleapis.com/auth/webmasters.readonly https://www.googleapis.com/auth/analytics.readonly openid https://www.googleapis.com/auth/userinfo.email",
          token_type: "Bearer",
          id_token: idToken(),
        });
      }
      if (p.grant_type === "refresh_token") {
        tokenCalls.refresh_token++;
        if (revoked || !refreshTokens.has(p.refresh_token ?? "")) {
          return send(400, {
            error: "invalid_grant",
            error_description: "Token has been expired or revoked.",
          });
        }
        return send(200, {
          access_token: issueAccess(),
          expires_in: 3599,
          scope:
            "https://www.googleapis.com/auth/webmasters.readonly https://www.googleapis.com/auth/analytics.readonly",
          token_type: "Bearer",
        });
      }
      return send(400, { error: "unsupported_grant_type" });
    }
    if (url.pathname === "/revoke") {
      const token = url.searchParams.get("token") ?? (body as Record<string, string> | null)?.token ?? "";
      refreshTokens.delete(token);
      return send(200, {});
    }

    // --- APIs: a live Bearer access token first ---------------------------------------------------------
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const expiry = accessTokens.get(bearer);
    if (revoked || expiry === undefined || expiry < Date.now()) {
      return apiError(
        401,
        "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
      );
    }

    if (url.pathname === "/webmasters/v3/sites" && req.method === "GET") {
      return send(200, { siteEntry: opts.sites });
    }
    const sa = /^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/.exec(url.pathname);
    if (sa && req.method === "POST") {
      const siteUrl = decodeURIComponent(sa[1]!);
      if (!opts.sites.some((s) => s.siteUrl === siteUrl)) {
        return apiError(
          403,
          "PERMISSION_DENIED",
          `User does not have sufficient permission for site '${siteUrl}'.`,
        );
      }
      const q = body as { startDate: string; endDate: string; dimensions?: string[]; rowLimit?: number };
      if (!q?.startDate || !q.endDate)
        return apiError(400, "INVALID_ARGUMENT", "startDate and endDate are required.");
      const dims = (q.dimensions ?? []) as (keyof FakeSearchRow)[];
      const groups = new Map<
        string,
        { keys: string[]; clicks: number; impressions: number; posSum: number }
      >();
      for (const r of opts.search) {
        if (r.date < q.startDate || r.date > q.endDate) continue;
        const keys = dims.map((d) => String(r[d]));
        const g = groups.get(keys.join("\u0000")) ?? { keys, clicks: 0, impressions: 0, posSum: 0 };
        g.clicks += r.clicks;
        g.impressions += r.impressions;
        g.posSum += r.position * r.impressions;
        groups.set(keys.join("\u0000"), g);
      }
      const rows = [...groups.values()]
        .sort((a, b) => b.clicks - a.clicks)
        .slice(0, q.rowLimit ?? 1000)
        .map((g) => ({
          ...(dims.length > 0 ? { keys: g.keys } : {}),
          clicks: g.clicks,
          impressions: g.impressions,
          ctr: g.impressions ? g.clicks / g.impressions : 0,
          position: g.impressions ? g.posSum / g.impressions : 0,
        }));
      return send(
        200,
        rows.length
          ? { rows, responseAggregationType: "byProperty" }
          : { responseAggregationType: "byProperty" },
      );
    }
    const ga = /^\/v1beta\/properties\/(\d+):runReport$/.exec(url.pathname);
    if (ga && req.method === "POST") {
      const data = opts.ga4[ga[1]!];
      if (!data) {
        return apiError(
          403,
          "PERMISSION_DENIED",
          `User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.`,
        );
      }
      const q = body as {
        dateRanges: { startDate: string; endDate: string }[];
        dimensions?: { name: string }[];
        metrics: { name: string }[];
        limit?: string | number;
        orderBys?: { metric?: { metricName: string }; desc?: boolean }[];
      };
      const range = q.dateRanges[0]!;
      const dims = (q.dimensions ?? []).map((d) => d.name as keyof FakeGa4Row);
      const mets = q.metrics.map((m) => m.name as keyof FakeGa4Row);
      const groups = new Map<string, { keys: string[]; values: number[] }>();
      for (const r of data) {
        const day = `${r.date.slice(0, 4)}-${r.date.slice(4, 6)}-${r.date.slice(6, 8)}`;
        if (day < range.startDate || day > range.endDate) continue;
        const keys = dims.map((d) => String(r[d]));
        const g = groups.get(keys.join("\u0000")) ?? { keys, values: mets.map(() => 0) };
        mets.forEach((m, i) => {
          g.values[i]! += Number(r[m]);
        });
        groups.set(keys.join("\u0000"), g);
      }
      let rows = [...groups.values()];
      const order = q.orderBys?.[0]?.metric?.metricName;
      if (order) {
        const i = mets.indexOf(order as keyof FakeGa4Row);
        rows.sort((a, b) => b.values[i]! - a.values[i]!);
      }
      const total = rows.length;
      if (q.limit) rows = rows.slice(0, Number(q.limit));
      return send(200, {
        dimensionHeaders: dims.map((name) => ({ name })),
        metricHeaders: mets.map((name) => ({ name, type: "TYPE_INTEGER" })),
        ...(rows.length
          ? {
              rows: rows.map((g) => ({
                dimensionValues: g.keys.map((value) => ({ value })),
                metricValues: g.values.map((v) => ({ value: String(v) })),
              })),
            }
          : {}),
        rowCount: total,
        metadata: { currencyCode: "USD", timeZone: "Etc/UTC" },
        kind: "analyticsData#runReport",
      });
    }
    return apiError(404, "NOT_FOUND", `No such method: ${req.method} ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    clientId,
    clientSecret,
    env: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_OAUTH_AUTH_URL: `${base}/o/oauth2/v2/auth`,
      GOOGLE_OAUTH_TOKEN_URL: `${base}/token`,
      GOOGLE_OAUTH_REVOKE_URL: `${base}/revoke`,
      GOOGLE_SEARCH_CONSOLE_BASE_URL: base,
      GOOGLE_ANALYTICS_DATA_BASE_URL: base,
    },
    requests,
    tokenCalls,
    revokeAll: () => {
      revoked = true;
    },
    expireAccessTokens: () => {
      for (const t of accessTokens.keys()) accessTokens.set(t, 0);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
