import { expect, test } from "@playwright/test";

// The API reference page and the OpenAPI document through Next's production pipeline.
test("GET /api/v1/openapi.json is public, raw OpenAPI 3.1 with absolute servers", async ({
  request,
  baseURL,
}) => {
  const res = await request.get("/api/v1/openapi.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["x-request-id"]).toMatch(/^req_/);
  const doc = await res.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.servers[0].url).toBe(`${baseURL}/api/v1`);
});

test("/docs/api renders every endpoint from the document", async ({ request }) => {
  const doc = await (await request.get("/api/v1/openapi.json")).json();
  const res = await request.get("/docs/api");
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain("<h1");
  const methods = new Set(["get", "post", "put", "patch", "delete"]);
  let operations = 0;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    // A path item also holds non-operations (the older interface's path-level `servers`).
    for (const [method, op] of Object.entries(item)) {
      if (!methods.has(method)) continue;
      expect(html, path).toContain(`id="${(op as { operationId: string }).operationId}"`);
      operations++;
    }
  }
  expect(operations).toBeGreaterThan(40);
  // Every tool of the catalogue is built on this server.
  expect(html).not.toContain("Not available on this server yet");
});
