import http from "node:http";
import fc from "fast-check";
import { afterAll, expect } from "vitest";
import { ERROR_CODES } from "@/lib/errors";
import { ROUTE_METHODS } from "@/lib/server/api-edge";
import { apiTest, type TestDbHandle } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { type EdgeServer, startEdgeServer } from "../support/edge-server";
import { type RawResponse, rawRequest } from "../support/raw-http";
import { fillPath, fuzzTargets } from "./targets";

// Raw requests no client library would send as they are: paths with malformed percent-encoding in any segment
// and every method Node's parser accepts (CONNECT included), written byte for byte over TCP to the production
// server's composition (edge, lean mount, a stand-in for Next) and to the test harness. Every answer must be
// the envelope below 500 with its request id; a malformed path is 400 VALIDATION_ERROR; a method outside
// GET…OPTIONS is 401, 404 or 405 with `Allow`; none of them may reach Next.
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const TOTAL = Math.round(1_200 * SCALE);
const CONCURRENCY = 8;

let handle: TestDbHandle;
let api: TestApi;
let prod: EdgeServer;
let acct: TestAccount;

const test = apiTest;
test.beforeAll(async ({ handle: _handle, api: _api }) => {
  handle = _handle;
  api = _api;
  prod = await startEdgeServer();
  acct = await createTestAccount(handle.db, { credits: 1_000, rateLimitPerMinute: 1_000_000 });
});
afterAll(async () => {
  await prod?.close();
});

const BAD_ESCAPES = [
  "%",
  "%Z",
  "%ZZ",
  "%G0",
  "%0",
  "%E0%A4%A",
  "%E0%A4",
  "%C0%AF",
  "%ED%A0%80",
  "%FF",
  "%80",
  "%%",
];
const badEscape = fc.oneof(
  fc.constantFrom(...BAD_ESCAPES),
  fc
    .tuple(
      fc.constantFrom("", "a", "%E0"),
      fc.constantFrom("%", "%z", "%F0%9F%98"),
      fc.constantFrom("", "x", "/"),
    )
    .map((parts) => parts.join("")),
);

// v1 paths from the operation list, the older interface's, unknown ones and the /api root.
const LEGACY_PATHS = [
  "/api/auth/me",
  "/api/tracking/visits",
  "/api/tracking/webhook/test",
  "/api/analytics/reports",
];
const pathTemplate = fc.oneof(
  fc.constantFrom(...fuzzTargets().map((t) => fillPath(t.path, {}))),
  fc.constantFrom(...LEGACY_PATHS, "/api/authjs/session", "/api/v1", "/api", "/api/nope/deeper"),
);

interface EdgeRequest {
  method: string;
  path: string;
  malformed: boolean;
  credentials: boolean;
}

const edgeRequest: fc.Arbitrary<EdgeRequest> = fc
  .record({
    template: pathTemplate,
    malformed: fc.boolean(),
    bad: badEscape,
    at: fc.nat(),
    method: fc.constantFrom(...http.METHODS),
    credentials: fc.boolean(),
    query: fc.constantFrom("", "?domain=example.com", "?x=%ZZ"),
  })
  // Every request is one of the edge's: a malformed path, a method outside GET…OPTIONS, or both.
  .map(({ template, malformed, bad: escapeText, at, method, credentials, query }) => {
    const broken = malformed || ROUTE_METHODS.has(method);
    const segments = template.split("/");
    if (broken) {
      // Any segment after /api (the path stays one of the API's), or a new last one.
      const i = 2 + (at % (segments.length - 1));
      segments[i] = `${segments[i] ?? ""}${escapeText}`;
    }
    return { method, path: `${segments.join("/")}${query}`, malformed: broken, credentials };
  });

function problemOf(req: EdgeRequest, res: RawResponse): string | undefined {
  if (res.status >= 500) return `status ${res.status}`;
  const requestId = res.headers["x-request-id"] ?? "";
  if (!/^req_[A-Za-z0-9_-]{16}$/.test(requestId)) return `no request id (status ${res.status})`;
  if (req.method === "HEAD") return res.body.length ? "HEAD with a body" : undefined;
  const body = res.json as { success?: boolean; error?: { code?: string }; requestId?: string } | undefined;
  if (body?.success !== false || !body.error) return `not an error envelope: ${res.body.slice(0, 200)}`;
  if (body.requestId !== requestId) return "requestId differs from X-Request-Id";
  if (!ERROR_CODES.includes(body.error.code as never)) return `unknown code ${body.error.code}`;
  if (req.malformed) {
    return res.status === 400 && body.error.code === "VALIDATION_ERROR"
      ? undefined
      : `malformed path: ${res.status}`;
  }
  if (![401, 404, 405, 429].includes(res.status)) return `method ${req.method}: ${res.status}`;
  if (res.status === 405 && !res.headers.allow) return "405 without Allow";
  return undefined;
}

test(`${TOTAL} raw requests with bad escapes and every method Node accepts: the envelope, below 500, never Next`, async () => {
  const requests = fc.sample(edgeRequest, { numRuns: TOTAL, seed: SEED });
  const methods = new Set(requests.map((r) => r.method));
  expect([...methods].sort()).toEqual([...http.METHODS].sort());
  expect(requests.filter((r) => r.malformed).length).toBeGreaterThan(TOTAL / 3);

  const problems: string[] = [];
  const counts = new Map<string, number>();
  let next = 0;
  let ip = 0;
  const worker = async () => {
    while (next < requests.length) {
      const req = requests[next++]!;
      for (const base of [prod.url, api.url]) {
        const headers: Record<string, string> = {
          // Each request its own client address, so the per-IP limit of anonymous requests stays out of the way.
          "x-forwarded-for": `203.0.113.${ip++ % 250}`,
          ...(req.credentials ? acct.headers : {}),
        };
        try {
          const res = await rawRequest(base, req.method, req.path, headers);
          const problem = problemOf(req, res);
          counts.set(String(res.status), (counts.get(String(res.status)) ?? 0) + 1);
          if (problem)
            problems.push(
              `${problem}: ${req.method} ${req.path} (${base === prod.url ? "prod" : "harness"})`,
            );
        } catch (err) {
          problems.push(`no answer (${String(err)}): ${req.method} ${req.path}`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(
    `raw edge fuzz: ${requests.length} requests × 2 servers (seed ${SEED}); statuses ${[...counts.entries()]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(" ")}`,
  );
  expect(problems.slice(0, 25), `${problems.length} problems`).toEqual([]);
  expect(prod.reachedNext.slice(0, 10)).toEqual([]);
}, 300_000);
