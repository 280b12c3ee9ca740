// The requests neither mount answers in the envelope by itself: malformed percent-encoding in the path, methods
// outside GET…OPTIONS (every one Node accepts, CONNECT included) and unknown paths of the older interface. Sent
// byte for byte over TCP to the production server's own composition (createAppServer: the edge, then the lean
// /api/v1 mount, then a stand-in for Next that must never be reached for these) and to the test harness.

import { readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { API_EDGE_ROUTES } from "@/api-routes";
import type { DbHandle } from "@/lib/db/client";
import { createLegacyToken } from "@/lib/keys/legacy-tokens";
import { hasMalformedEscape, ROUTE_METHODS } from "@/lib/server/api-edge";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { apiTest } from "@/test/support/fixtures";
import { type EdgeServer, startEdgeServer } from "../support/edge-server";
import { type RawResponse, rawRequest as sendRaw } from "../support/raw-http";

const test = apiTest.withAccount({ credits: 100, rateLimitPerMinute: 100_000 });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});

// Each request from its own client address (the per-IP limit of requests without credentials is 60 a minute):
// both servers believe X-Forwarded-For from loopback here.
let nextIp = 0;
const rawRequest = (base: string, method: string, p: string, headers: Record<string, string> = {}) =>
  sendRaw(base, method, p, { "x-forwarded-for": `198.51.100.${nextIp++ % 250}`, ...headers });
let prod: EdgeServer;
let token: string;

beforeAll(async () => {
  token = (await createLegacyToken(handle.db, acct.accountId, { name: "edge" })).token;
  prod = await startEdgeServer();
});
afterAll(() => prod?.close());

function expectEnvelope(res: RawResponse, status: number, code: string) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const body = res.json as { success: boolean; error: { code: string }; requestId: string };
  expect(body).toMatchObject({ success: false, error: { code } });
  expect(body.requestId).toMatch(/^req_/);
  expect(res.headers["x-request-id"]).toBe(body.requestId);
  return body as unknown as {
    success: false;
    error: { code: string; message: string; details: Record<string, unknown> };
  };
}

const servers = () => [
  { name: "production composition", url: prod.url },
  { name: "test harness", url: api.url },
];

const MALFORMED: [string, string][] = [
  ["GET", "/api/v1/jobs/%ZZ"],
  ["GET", "/api/v1/jobs/%E0%A4%A"],
  ["POST", "/api/v1/domains/%E0%A4%A/verify"],
  ["DELETE", "/api/v1/domains/%C0%AF"],
  ["GET", "/api/v1/%ZZ"],
  ["HEAD", "/api/v1/jobs/%"],
  ["GET", "/api/v1/credits/%ED%A0%80"],
  ["GET", "/api/tracking/visits/%G1"],
  ["GET", "/api/%E0%A4%A?x=1"],
  ["PROPFIND", "/api/v1/jobs/%ZZ"],
];

describe.each(["production composition", "test harness"])("%s", (name) => {
  const base = () => servers().find((s) => s.name === name)!.url;

  test.each(MALFORMED)(
    "%s %s: 400 VALIDATION_ERROR (malformed_path) with its request id",
    async (method, p) => {
      const res = await rawRequest(base(), method, p, acct.headers);
      if (method === "HEAD") {
        expect(res.status).toBe(400);
        expect(res.headers["x-request-id"]).toMatch(/^req_/);
        return;
      }
      const body = expectEnvelope(res, 400, "VALIDATION_ERROR");
      expect(body.error.details).toMatchObject({ reason: "malformed_path", field: "path" });
    },
  );

  const exotic = http.METHODS.filter((m) => !ROUTE_METHODS.has(m));

  test(`every other method Node accepts (${exotic.length}) on a keyed route: 401 without credentials, 405 with Allow with them`, async () => {
    for (const method of exotic) {
      const anon = await rawRequest(base(), method, "/api/v1/credits");
      expectEnvelope(anon, 401, "UNAUTHORIZED");
      const res = await rawRequest(base(), method, "/api/v1/credits", acct.headers);
      const body = expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.allow, method).toBe("GET");
      expect(body.error.message).toContain(`${method} is not allowed here`);
      expect(res.headers["ratelimit-limit"]).toBeDefined();
    }
  });

  test("other methods on the other kinds of path: tool, the OpenAPI document, legacy, session routes, unknown", async () => {
    for (const method of ["PROPFIND", "LOCK", "SEARCH", "TRACE", "M-SEARCH", "QUERY"]) {
      let res = await rawRequest(base(), method, "/api/v1/audits", acct.headers);
      expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.allow).toBe("POST");
      res = await rawRequest(base(), method, "/api/v1/openapi.json", acct.headers);
      expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.allow).toBe("GET");
      res = await rawRequest(
        base(),
        method,
        "/api/v1/jobs/00000000-0000-4000-8000-000000000000",
        acct.headers,
      );
      expect(res.headers.allow).toBe("GET");
      res = await rawRequest(base(), method, "/api/tracking/visits", { authorization: `Bearer ${token}` });
      expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.allow).toBe("GET, POST");
      res = await rawRequest(base(), method, "/api/authjs/session");
      expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.allow).toBe("GET, POST");
      expectEnvelope(await rawRequest(base(), method, "/api/v1/no-such-tool"), 404, "NOT_FOUND");
      expectEnvelope(await rawRequest(base(), method, "/api/v1/no/such/path"), 404, "NOT_FOUND");
      // The unknown paths of the older interface with these methods are the edge's; with GET…OPTIONS, Next's.
      expectEnvelope(await rawRequest(base(), method, "/api/no/such/path"), 404, "NOT_FOUND");
    }
  });

  test("CONNECT, which Node hands to no request handler, gets the envelope too", async () => {
    const res = await rawRequest(base(), "CONNECT", "/api/v1/credits", acct.headers);
    expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.allow).toBe("GET");
    const elsewhere = await rawRequest(base(), "CONNECT", "example.com:443");
    expectEnvelope(elsewhere, 405, "METHOD_NOT_ALLOWED");
  });

  test.runIf(name === "test harness").each([
    ["GET", "/api/nope"],
    ["GET", "/api/tracking/nope"],
    ["POST", "/api/analytics/nope/deeper"],
    ["DELETE", "/api/auth/nope"],
  ])("%s %s (older interface, no endpoint): JSON 404 in the envelope", async (method, p) => {
    const res = await rawRequest(base(), method, p);
    const body = expectEnvelope(res, 404, "NOT_FOUND");
    expect(body.error.message).toContain(`No endpoint at ${p}`);
  });

  test("ordinary requests pass the edge untouched", async () => {
    const res = await rawRequest(base(), "GET", "/api/v1/credits", acct.headers);
    expect(res.status).toBe(200);
    const encoded = await rawRequest(base(), "GET", "/api/v1/jobs/%61bc", acct.headers);
    expectEnvelope(encoded, 404, "NOT_FOUND");
  });
});

test("the production composition never handed one of these requests to Next", () => {
  expect(prod.reachedNext).toEqual([]);
});

test("hasMalformedEscape", () => {
  for (const bad of ["/a/%ZZ", "/%", "/%E0%A4%A", "/x/%C0%AF", "/%ED%A0%80", "/%2"]) {
    expect(hasMalformedEscape(bad), bad).toBe(true);
  }
  for (const good of ["/a/b", "/a%20b", "/%E0%A4%A4", "/%2F", "/"]) {
    expect(hasMalformedEscape(good), good).toBe(false);
  }
});

const ROOT = path.resolve(import.meta.dirname, "../..");
function routeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...routeFiles(rel));
    else if (name === "route.ts") out.push(rel);
  }
  return out;
}

test("the edge's table names every route file under app/api, with its module or its exported methods", async () => {
  const files = routeFiles("app/api");
  const table = new Map(API_EDGE_ROUTES.map((r) => [r.path, r]));
  for (const file of files) {
    const routePath = `/${file.replace(/^app\//, "").replace(/\/route\.ts$/, "")}`;
    const found = table.get(routePath);
    expect(found, `${file} is not in API_EDGE_ROUTES (api-routes.ts)`).toBeDefined();
    const entry = found!;
    if ("module" in entry) {
      const mod = (await import(/* @vite-ignore */ path.join(ROOT, file))) as Record<string, unknown>;
      for (const m of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
        expect(entry.module[m]).toBe(mod[m]);
    } else {
      // These modules load next-auth or Stripe: their exports are read from the source.
      const source = readFileSync(path.join(ROOT, file), "utf8");
      const exported = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) =>
        new RegExp(`export (async function ${m}\\b|const ${m}\\b|const \\{[^}]*\\b${m}\\b[^}]*\\})`).test(
          source,
        ),
      );
      expect(entry.methods, file).toEqual(exported);
    }
  }
  expect(API_EDGE_ROUTES.length).toBe(files.length);
});

describe("deprecated operations of the older interface", () => {
  const bearer = () => ({ authorization: `Bearer ${token}` });

  test.each([
    ["GET", "/api/tracking/citations?domain=nowhere.example"],
    ["GET", "/api/tracking/webhook"],
    ["POST", "/api/tracking/visits"],
  ])("%s %s: Deprecation (RFC 9745) and Sunset (RFC 8594) on success and error alike", async (method, p) => {
    for (const headers of [bearer(), {}]) {
      const res = await rawRequest(api.url, method, p, headers);
      expect(res.headers.deprecation, `${res.status}`).toBe("@1796083200");
      expect(res.headers.sunset).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
      expect(res.headers.link).toContain('rel="deprecation"');
    }
  });

  test("operations v1 has no equivalent of are not deprecated", async () => {
    const me = await rawRequest(api.url, "GET", "/api/auth/me", bearer());
    expect(me.status).toBe(200);
    expect(me.headers.deprecation).toBeUndefined();
    expect(me.headers.sunset).toBeUndefined();
  });

  test("the OpenAPI document declares both headers on the deprecated operations", async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`, { headers: acct.headers })).json()) as {
      paths: Record<
        string,
        Record<string, { deprecated?: boolean; responses: Record<string, { headers?: object }> }>
      >;
    };
    const citations = doc.paths["/tracking/citations"]!.get!;
    expect(citations.deprecated).toBe(true);
    expect(Object.keys(citations.responses["200"]!.headers!)).toEqual(
      expect.arrayContaining(["Deprecation", "Sunset"]),
    );
  });
});
