import { expect, test } from "@playwright/test";
import { e2eAccount } from "../accounts";

// The production build through Next's real pipeline: routing, 404/405, headers.
test("GET /api/v1/credits with a valid pair", async ({ request }) => {
  const main = e2eAccount("main");
  const res = await request.get("/api/v1/credits", { headers: main.headers });
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({ success: true, data: { balance: 1100, totalUsed: 0 } });
  expect(body.requestId).toBe(res.headers()["x-request-id"]);
  expect(res.headers()["ratelimit-policy"]).toBe("100000;w=60");
  expect(res.headers()["strict-transport-security"]).toContain("max-age=");
});

test("missing credentials: 401 in the envelope", async ({ request }) => {
  const res = await request.get("/api/v1/credits");
  expect(res.status()).toBe(401);
  expect((await res.json()).error.code).toBe("UNAUTHORIZED");
});

test("unknown paths and wrong methods answer JSON, never HTML", async ({ request }) => {
  const main = e2eAccount("main");
  const unknown = await request.get("/api/v1/does/not/exist", { headers: main.headers });
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()["content-type"]).toContain("application/json");
  expect((await unknown.json()).error.code).toBe("NOT_FOUND");
  const wrong = await request.put("/api/v1/credits", { headers: main.headers, data: {} });
  expect(wrong.status()).toBe(405);
  expect(wrong.headers().allow).toBe("GET");
  expect((await wrong.json()).error.code).toBe("METHOD_NOT_ALLOWED");
});

test("jobs of other accounts are NOT_FOUND", async ({ request }) => {
  const other = e2eAccount("other");
  const res = await request.get("/api/v1/jobs/00000000-0000-4000-8000-000000000000", {
    headers: other.headers,
  });
  expect(res.status()).toBe(404);
  expect((await res.json()).error.code).toBe("NOT_FOUND");
});

test("the 61st request within a minute is 429 with Retry-After", async ({ request }) => {
  const limited = e2eAccount("limited");
  for (let i = 0; i < 60; i++) {
    expect((await request.get("/api/v1/credits", { headers: limited.headers })).status()).toBe(200);
  }
  const res = await request.get("/api/v1/credits", { headers: limited.headers });
  expect(res.status()).toBe(429);
  expect(Number(res.headers()["retry-after"])).toBeGreaterThan(0);
  expect(res.headers()["ratelimit-remaining"]).toBe("0");
});
