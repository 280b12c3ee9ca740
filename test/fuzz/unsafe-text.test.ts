import { describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";

// What the fuzzer found: a NUL or an unpaired surrogate in any text reached Postgres (which refuses
// both in text and jsonb) and came back as a 500. Each edge now answers 400 naming the field, and
// nothing is charged.
const test = apiTest.withAccount({ credits: 1000, domains: ["example.com"] });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;

test.beforeAll(async ({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});

async function call(method: string, path: string, body?: string) {
  const headers: Record<string, string> = { ...acct.headers };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${api.url}${path}`, { method, headers, body });
  return { status: res.status, requestId: res.headers.get("x-request-id"), body: await res.json() };
}

describe("REST: 400 VALIDATION_ERROR naming the field, no charge", () => {
  const cases: { name: string; method: string; path: string; body?: string; field: string }[] = [
    {
      name: "NUL in a tool's URL (was a 500 from the jsonb insert)",
      method: "POST",
      path: "/api/v1/seo-aeo-geo-audit",
      body: '{"url":"https://example.com/a\\u0000b"}',
      field: "url",
    },
    {
      name: "unpaired surrogate in a tool's URL",
      method: "POST",
      path: "/api/v1/audits",
      body: '{"url":"https://example.com/\\udc00"}',
      field: "url",
    },
    {
      name: "NUL in a tracking event's user agent",
      method: "POST",
      path: "/api/v1/tracking/events",
      body: `{"events":[{"domain":"example.com","path":"/","userAgent":"GPTBot\\u0000","timestamp":"${new Date().toISOString()}"}]}`,
      field: "events.0.userAgent",
    },
    {
      name: "NUL in a domain body",
      method: "POST",
      path: "/api/v1/domains",
      body: '{"domain":"a\\u0000.com"}',
      field: "domain",
    },
    {
      name: "NUL in a domain path parameter",
      method: "GET",
      path: "/api/v1/domains/example.com%00",
      field: "domain",
    },
    { name: "NUL in a job id", method: "GET", path: "/api/v1/jobs/%00", field: "jobId" },
    {
      name: "NUL in a query value",
      method: "GET",
      path: "/api/v1/tracking/stats?domain=example.com%00",
      field: "domain",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const before = await balanceOf(handle.db, acct.accountId);
      const res = await call(c.method, c.path, c.body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.field).toBe(c.field);
      expect(res.body.requestId).toBe(res.requestId);
      expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
    });
  }
});

test("MCP: a NUL in tool arguments is a VALIDATION_ERROR tool result, no charge", async () => {
  const before = await balanceOf(handle.db, acct.accountId);
  const res = await fetch(`${api.url}/api/v1/mcp`, {
    method: "POST",
    headers: {
      ...acct.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "backlinks_overview", arguments: { target: "example.com\u0000" } },
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { isError: boolean; structuredContent: Record<string, any> } };
  expect(body.result.isError).toBe(true);
  expect(body.result.structuredContent.code).toBe("VALIDATION_ERROR");
  expect(body.result.structuredContent.details.field).toBe("target");
  expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
});
