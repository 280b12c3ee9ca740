import { expect, test } from "@playwright/test";
import { e2eAccount } from "../accounts";

// Next's own pipeline at the API's edges: nothing answers HTML, an empty 204 or a bare redirect.
test("GET /api/v1 itself is a JSON 404 in the envelope", async ({ request }) => {
  const res = await request.get("/api/v1");
  expect(res.status()).toBe(404);
  expect(res.headers()["content-type"]).toContain("application/json");
  const body = await res.json();
  expect(body.error.code).toBe("NOT_FOUND");
  expect(body.requestId).toBe(res.headers()["x-request-id"]);
  expect(res.headers()["ratelimit-limit"]).toBeTruthy();
});

test("a trailing slash is served as the path without it, in JSON, not a bare 308", async ({ request }) => {
  const main = e2eAccount("main");
  const res = await request.get("/api/v1/credits/", { headers: main.headers, maxRedirects: 0 });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  expect((await res.json()).success).toBe(true);
});

test("OPTIONS answers the allowed methods in the envelope", async ({ request }) => {
  const res = await request.fetch("/api/v1/domains", { method: "OPTIONS" });
  expect(res.status()).toBe(200);
  expect(res.headers().allow).toBe("GET, POST");
  expect((await res.json()).data.allow).toEqual(["GET", "POST"]);
  expect(res.headers()["x-request-id"]).toMatch(/^req_/);
});

test("a wrong method without credentials is 401 before 405", async ({ request }) => {
  const res = await request.delete("/api/v1/credits");
  expect(res.status()).toBe(401);
  expect((await res.json()).error.code).toBe("UNAUTHORIZED");
});

test("Fastly's log-streaming challenge is answered for any service", async ({ request }) => {
  const res = await request.get("/.well-known/fastly/logging/challenge");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/plain");
  expect((await res.text()).split("\n")).toContain("*");
});
