import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import type { TestAccount } from "@/test/accounts";
import type { TestApi } from "@/test/api-server";
import { apiTest } from "@/test/support/fixtures";
import { jobRow } from "../jobs-helpers";
import { configureEnginesOffline } from "../support/configure-engines";

// Every /api/v1 answer, including the ones no handler was written for, is the envelope with a
// request id and the rate-limit headers, and counts against a limit.
beforeAll(() => {
  // The AI tools refuse engines without a key; these tests create AI jobs without running them.
  configureEnginesOffline();
});
afterAll(() => {
  vi.unstubAllEnvs();
});
const test = apiTest.withAccount({ credits: 1000 });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
});

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${api.url}${path}`, init);
  const text = await res.text();
  return { res, body: JSON.parse(text) as Record<string, any> };
}

function expectEdgeHeaders(res: Response, body?: Record<string, unknown>) {
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  if (body) expect(body.requestId).toBe(res.headers.get("x-request-id"));
  expect(Number(res.headers.get("ratelimit-limit"))).toBeGreaterThan(0);
  expect(res.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
}

describe("the contract at every edge", () => {
  test("GET /api/v1 itself is a JSON 404 in the envelope", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const { res, body } = await call("/api/v1", { method });
      expect(res.status).toBe(404);
      expect(body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
      expectEdgeHeaders(res, body);
    }
  });

  test("an unknown path is a JSON 404 with request id and rate headers, without credentials too", async () => {
    const { res, body } = await call("/api/v1/nothing/here");
    expect(res.status).toBe(404);
    expect(body.error.code).toBe("NOT_FOUND");
    expectEdgeHeaders(res, body);
  });

  test("unknown paths count against the per-IP limit", async () => {
    const first = await call("/api/v1/nothing");
    const second = await call("/api/v1/nothing");
    expect(Number(second.res.headers.get("ratelimit-remaining"))).toBeLessThan(
      Number(first.res.headers.get("ratelimit-remaining")),
    );
  });

  test("a wrong method without credentials is 401 before 405; with them a 405 with rate headers", async () => {
    const anonymous = await call("/api/v1/credits", { method: "DELETE" });
    expect(anonymous.res.status).toBe(401);
    expect(anonymous.body.error.code).toBe("UNAUTHORIZED");
    expectEdgeHeaders(anonymous.res, anonymous.body);
    const signed = await call("/api/v1/credits", { method: "DELETE", headers: acct.headers });
    expect(signed.res.status).toBe(405);
    expect(signed.res.headers.get("allow")).toBe("GET");
    expect(signed.body.error.details.allow).toEqual(["GET"]);
    expectEdgeHeaders(signed.res, signed.body);
  });

  test("OPTIONS answers the allowed methods in the envelope, without credentials", async () => {
    const { res, body } = await call("/api/v1/domains", { method: "OPTIONS" });
    expect(res.status).toBe(200);
    expect(res.headers.get("allow")).toBe("GET, POST");
    expect(body).toMatchObject({ success: true, data: { allow: ["GET", "POST"] } });
    expectEdgeHeaders(res, body);
  });

  test("HTTPS_REQUIRED is the envelope with request id and rate headers, and counts", async () => {
    const { GET } = await import("@/app/api/v1/credits/route");
    const { GET: unknown } = await import("@/app/api/v1/[...path]/route");
    const previous = process.env.REQUIRE_HTTPS;
    process.env.REQUIRE_HTTPS = "true";
    try {
      const args = { params: Promise.resolve({}) };
      const insecure = (path: string) =>
        new Request(`http://api.example.com${path}`, {
          headers: { ...acct.headers, "x-forwarded-for": "203.0.113.9" },
        });
      const first = await GET(insecure("/api/v1/credits"), args);
      const body = await first.json();
      expect(first.status).toBe(403);
      expect(body.error.code).toBe("HTTPS_REQUIRED");
      expectEdgeHeaders(first, body);
      const second = await unknown(insecure("/api/v1/nothing"), args);
      expect(second.status).toBe(403);
      expect(Number(second.headers.get("ratelimit-remaining"))).toBeLessThan(
        Number(first.headers.get("ratelimit-remaining")),
      );
    } finally {
      if (previous === undefined) delete process.env.REQUIRE_HTTPS;
      else process.env.REQUIRE_HTTPS = previous;
    }
  });

  test("openapi.json and postman.json stay raw documents but carry X-Request-Id and rate headers", async () => {
    const doc = await call("/api/v1/openapi.json");
    expect(doc.res.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.1/);
    expectEdgeHeaders(doc.res);
    const postman = await call("/api/v1/postman.json", { headers: acct.headers });
    expect(postman.res.status).toBe(200);
    expect(postman.body.info).toBeTruthy();
    expectEdgeHeaders(postman.res);
  });
});

describe("enum values in any letter case", () => {
  test("engine, engines and strategy are stored in their canonical spelling", async () => {
    const post = (path: string, body: unknown) =>
      call(path, {
        method: "POST",
        headers: { ...acct.headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const visibility = await post("/api/v1/brand-visibility", {
      prompt: "best crm",
      domain: "example.com",
      engine: "chatGPT",
    });
    expect(visibility.res.status).toBe(202);
    expect((await jobRow(handle.db, visibility.body.data.jobId))!.input).toMatchObject({ engine: "ChatGPT" });
    const citations = await post("/api/v1/ai-citation-check", {
      prompt: "best crm",
      domain: "example.com",
      engines: ["PERPLEXITY", "gemini"],
    });
    expect(citations.res.status).toBe(202);
    expect((await jobRow(handle.db, citations.body.data.jobId))!.input).toMatchObject({
      engines: ["Perplexity", "Gemini"],
    });
    const vitals = await post("/api/v1/core-web-vitals", {
      url: "https://example.com/",
      strategy: "Desktop",
    });
    expect(vitals.res.status).toBe(202);
    expect((await jobRow(handle.db, vitals.body.data.jobId))!.input).toMatchObject({ strategy: "desktop" });
    const bad = await post("/api/v1/brand-visibility", {
      prompt: "x",
      domain: "example.com",
      engine: "bing",
    });
    expect(bad.res.status).toBe(400);
    expect(bad.body.error.details.field).toBe("engine");
  });
});
