import { readdirSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { ERROR_STATUS } from "@/lib/api/errors";
import { toJsonSchema } from "@/lib/contract/json-schema";
import { creditAccount } from "@/lib/credits/view";
import type { DbHandle } from "@/lib/db/client";
import { auditsJobCreated, jobCreated, jobSummary } from "@/lib/jobs/view";
import type { OpenApiDocument } from "@/lib/openapi/document";
import { API_ROUTES } from "@/lib/openapi/operations";
import type { PostmanCollection } from "@/lib/openapi/postman";
import { EXAMPLE_DOMAIN, TOOL_EXAMPLES } from "@/lib/routes/examples";
import { pascal } from "@/lib/routes/tools";
import { TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";
import { stubDataForSeoEnv } from "@/test/support/dataforseo-env";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { configureEnginesOffline } from "../support/configure-engines";

const test = apiTest;
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let doc: OpenApiDocument;

beforeAll(async () => {
  // The AI tools refuse engines this server has no key for; the examples name engines.
  configureEnginesOffline();
  // The keyword and backlink tools need a data source to be created at all.
  stubDataForSeoEnv();
});
test.beforeAll(async ({ handle: _handle, api: _api }) => {
  handle = _handle;
  api = _api;
  // The documents name the configured public address (as npm start sets it to the listening one).
  process.env.PUBLIC_BASE_URL = api.url;
  acct = await createTestAccount(handle.db, { credits: 100_000, domains: [EXAMPLE_DOMAIN] });
  const res = await fetch(`${api.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
});
afterAll(async () => {
  vi.unstubAllEnvs();
});

/** Every route file under app/api/v1 (the catch-all 404 aside), as an OpenAPI path. */
function routeFiles(dir = path.resolve("app/api/v1"), prefix = ""): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // The root's route file, like [...path], only answers the JSON 404 (no endpoint lives at /api/v1).
    if (entry.isFile() && entry.name === "route.ts" && prefix) found.push(prefix);
    if (!entry.isDirectory() || entry.name.startsWith("[...")) continue;
    // The one dynamic tool route answers at every tool of the catalogue.
    if (entry.name === "[tool]") {
      found.push(...TOOL_NAMES.map((name) => `${prefix}/${name}`));
      continue;
    }
    const segment = entry.name.replace(/^\[(\w+)\]$/, "{$1}");
    found.push(...routeFiles(path.join(dir, entry.name), `${prefix}/${segment}`));
  }
  return found;
}

const SAMPLE_PARAMS: Record<string, string> = {
  jobId: "00000000-0000-4000-8000-000000000000",
  domain: EXAMPLE_DOMAIN,
};

describe("GET /api/v1/openapi.json", () => {
  test("public, raw OpenAPI 3.1 (not the envelope), with a request id, valid for swagger-parser", async () => {
    const res = await fetch(`${api.url}/api/v1/openapi.json`);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const body = await res.json();
    expect(body.openapi).toBe("3.1.0");
    expect(body.success).toBeUndefined();
    expect(body.servers[0].url).toBe(`${api.url}/api/v1`);
    await expect(SwaggerParser.validate(structuredClone(body))).resolves.toBeTruthy();
  });

  test("every route file under app/api/v1 is in paths, with exactly the methods it answers", async () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(20);
    // A separate account, so that probing DELETE /domains/{domain} removes nothing the other tests use.
    const probe = await createTestAccount(handle.db);
    for (const file of files) {
      const url = `${api.url}/api/v1${file.replace(/\{(\w+)\}/g, (_m, n: string) => SAMPLE_PARAMS[n] ?? "x")}`;
      const answered: string[] = [];
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        // With credentials: a route that needs them answers 401 before 405 otherwise.
        const res = await fetch(url, { method, headers: probe.headers });
        if (res.status !== 405) answered.push(method.toLowerCase());
        await res.arrayBuffer();
      }
      expect(doc.paths[file], file).toBeDefined();
      expect(Object.keys(doc.paths[file]!).sort(), file).toEqual(answered.sort());
    }
    // And nothing documented that does not exist (the older interface's paths, with their own server, aside).
    const v1Paths = Object.keys(doc.paths).filter((p) => !("servers" in doc.paths[p]!));
    expect(v1Paths.sort()).toEqual(files.sort());
  });

  test("the older interface: every route file under /api/{auth/me,tracking,analytics} is documented, deprecated where v1 has it", async () => {
    const legacyFiles = ["auth/me", "tracking", "analytics"].flatMap((dir) =>
      routeFiles(path.resolve("app/api", dir), `/${dir}`),
    );
    expect(legacyFiles.sort()).toEqual(
      [
        "/analytics/reports",
        "/analytics/visibility",
        "/auth/me",
        "/tracking/citations",
        "/tracking/visits",
        "/tracking/webhook",
        "/tracking/webhook/test",
      ].sort(),
    );
    const probe = await createTestAccount(handle.db);
    const bearer = { authorization: `Bearer ${probe.key}:${probe.secret}` };
    for (const file of legacyFiles) {
      const item = doc.paths[file] as Record<string, any>;
      expect(item, file).toBeDefined();
      expect(item.servers[0].url).toBe(
        doc.servers && (doc.servers as { url: string }[])[0]!.url.replace(/\/v1$/, ""),
      );
      const answered: string[] = [];
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const res = await fetch(`${api.url}/api${file}`, { method, headers: bearer });
        if (res.status !== 405) answered.push(method.toLowerCase());
        await res.arrayBuffer();
      }
      expect(
        Object.keys(item)
          .filter((k) => k !== "servers")
          .sort(),
        file,
      ).toEqual(answered.sort());
      for (const method of answered) {
        expect(item[method].tags).toEqual(["Legacy interface"]);
        expect(item[method].security).toEqual([{ LegacyBearer: [] }]);
      }
    }
    const deprecated = legacyFiles.flatMap((f) =>
      Object.entries(doc.paths[f]!)
        .filter(([, op]) => (op as { deprecated?: boolean }).deprecated)
        .map(([m]) => `${m} ${f}`),
    );
    expect(deprecated.sort()).toEqual(
      [
        "delete /tracking/webhook",
        "get /tracking/citations",
        "get /tracking/webhook",
        "post /tracking/visits",
        "post /tracking/webhook",
        "post /tracking/webhook/test",
      ].sort(),
    );
  });

  test("security schemes: the key and secret headers, and Bearer <key>:<secret>", () => {
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: "apiKey", in: "header", name: "x-api-key" },
      ApiSecret: { type: "apiKey", in: "header", name: "x-api-secret" },
      BearerKeySecret: { type: "http", scheme: "bearer" },
    });
    expect(doc.security).toEqual([{ ApiKey: [], ApiSecret: [] }, { BearerKeySecret: [] }]);
    expect(doc.paths["/openapi.json"]!.get!.security).toEqual([]);
  });

  test("the error envelope, every code, and error responses with rate-limit headers", () => {
    const schemas = doc.components.schemas as Record<string, any>;
    expect(schemas.ErrorCode.enum.sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    expect(schemas.ErrorEnvelope.required).toEqual(["success", "error", "requestId"]);
    const responses = doc.components.responses as Record<string, any>;
    expect(Object.keys(responses.RateLimited.headers)).toContain("Retry-After");
    expect(responses.Forbidden.description).toContain("HTTPS_REQUIRED");
    for (const op of API_ROUTES) {
      const o = doc.paths[op.path]![op.method]!;
      if (!op.public) {
        for (const status of ["401", "403", "429", "500"]) expect(o.responses[status], op.path).toBeDefined();
        const ok = o.responses[String(op.success.status)]!;
        expect(Object.keys(ok.headers as object)).toEqual(
          expect.arrayContaining([
            "X-Request-Id",
            "RateLimit-Limit",
            "RateLimit-Remaining",
            "RateLimit-Reset",
          ]),
        );
      }
    }
  });

  test("every tool: input schema, cost, 202 + Location, Idempotency-Key, and its result schema", () => {
    const schemas = doc.components.schemas as Record<string, any>;
    for (const name of TOOL_NAMES) {
      const op = doc.paths[`/${name}`]!.post!;
      expect(op.requestBody!.content["application/json"]!.schema).toEqual({
        $ref: `#/components/schemas/${pascal(name)}Input`,
      });
      expect(schemas[`${pascal(name)}Input`]).toEqual(toJsonSchema(TOOLS[name].input, "input"));
      expect(op["x-cost"]).toMatch(/credits/);
      expect(op.description).toContain(`Costs ${op["x-cost"]}`);
      const accepted = op.responses["202"] as any;
      expect(Object.keys(accepted.headers)).toContain("Location");
      expect(accepted.content["application/json"].schema.properties.data.$ref).toBe(
        `#/components/schemas/${name === "audits" ? "AuditsJobCreated" : "JobCreated"}`,
      );
      expect(op.parameters?.some((p) => p.name === "Idempotency-Key" && p.in === "header")).toBe(true);
      expect(op.responses["402"]).toBeDefined();
      expect(op.responses["400"]).toBeDefined();
      const result = schemas[`${pascal(name)}Result`];
      if (TOOLS[name].result.def.type === "never") {
        expect(result.description).toContain("Not available on this server yet");
        expect(op.description).toContain("Not available on this server yet");
      } else {
        expect(result).toMatchObject(toJsonSchema(TOOLS[name].result));
        expect(schemas.Job.properties.result.oneOf).toContainEqual({
          $ref: `#/components/schemas/${pascal(name)}Result`,
        });
      }
    }
    expect(schemas.AuditsJobCreated.required.sort()).toEqual(
      ["creditsCharged", "jobId", "pollUrl", "status", "tool"].sort(),
    );
    expect(schemas.JobCreated.required.sort()).toEqual(["jobId", "pollUrl", "status"]);
  });

  test("query parameters come from the routes' schemas", () => {
    const params = doc.paths["/citations"]!.get!.parameters!;
    expect(params.map((p) => [p.name, p.required])).toEqual([
      ["domain", true],
      ["days", false],
      ["limit", false],
    ]);
    expect(doc.paths["/jobs"]!.get!.parameters!.map((p) => p.name)).toEqual([
      "status",
      "tool",
      "limit",
      "cursor",
    ]);
    expect(doc.paths["/jobs/{jobId}"]!.get!.parameters![0]).toMatchObject({ in: "path", required: true });
  });
});

describe("the examples are real", () => {
  for (const name of TOOL_NAMES) {
    test(`${name}: the example body parses with the tool's schema and the endpoint answers 202`, async () => {
      const example = doc.paths[`/${name}`]!.post!.requestBody!.content["application/json"]!.example;
      expect(example).toEqual(TOOL_EXAMPLES[name]);
      expect(TOOLS[name].input.safeParse(example).success).toBe(true);
      const res = await fetch(`${api.url}/api/v1/${name}`, {
        method: "POST",
        headers: { ...acct.headers, "content-type": "application/json" },
        body: JSON.stringify(example),
      });
      expect(res.status).toBe(202);
      const body = await res.json();
      const schema = name === "audits" ? auditsJobCreated : jobCreated;
      expect(schema.strict().safeParse(body.data).success).toBe(true);
      const job = await (await fetch(`${api.url}${body.data.pollUrl}`, { headers: acct.headers })).json();
      expect(jobSummary.strict().safeParse(job.data).success).toBe(true);
    });
  }

  test("GET /credits answers the CreditAccount schema", async () => {
    const body = await (await fetch(`${api.url}/api/v1/credits`, { headers: acct.headers })).json();
    expect(creditAccount.strict().safeParse(body.data).success).toBe(true);
  });

  test("the tracking events example is accepted", async () => {
    const op = doc.paths["/tracking/events"]!.post!;
    const res = await fetch(`${api.url}/api/v1/tracking/events`, {
      method: "POST",
      headers: { ...acct.headers, "content-type": "application/json" },
      body: JSON.stringify(op.requestBody!.content["application/json"]!.example),
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ received: 1, rejected: [] });
  });
});

describe("GET /api/v1/postman.json", () => {
  test("needs the key and secret", async () => {
    const res = await fetch(`${api.url}/api/v1/postman.json`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("UNAUTHORIZED");
  });

  test("a raw v2.1 collection: every operation, variables, bodies and a test script per request", async () => {
    const res = await fetch(`${api.url}/api/v1/postman.json`, { headers: acct.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("ratelimit-limit")).toBeTruthy();
    const collection = (await res.json()) as PostmanCollection;
    expect(collection.info.schema).toBe(
      "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    );
    const vars = Object.fromEntries(collection.variable.map((v) => [v.key, v.value]));
    expect(vars.baseUrl).toBe(`${api.url}/api/v1`);
    expect(Object.keys(vars)).toEqual(
      expect.arrayContaining(["apiKey", "apiSecret", "domain", "siteUrl", "jobId"]),
    );
    const items = collection.item.flatMap((f) => f.item);
    expect(items).toHaveLength(API_ROUTES.length);
    expect(collection.item.map((f) => f.name)).toEqual([
      "Tools",
      "Jobs",
      "Credits",
      "Tracking",
      "Domains",
      "Monitors",
      "Schedules",
      "AI visibility",
      "Search and analytics",
      "Webhooks",
      "Keys",
      "MCP",
      "Meta",
      "Legacy interface",
    ]);
    for (const op of API_ROUTES) {
      const rawPath = op.path.replace(/\{(\w+)\}/g, (_m, n: string) =>
        n === "domain" ? `{{${op.postman?.domainVariable ?? "domain"}}}` : `{{${n}}}`,
      );
      const item = items.find(
        (i) =>
          i.request.method === op.method.toUpperCase() &&
          i.request.url.raw.split("?")[0] === `${op.legacy ? "{{legacyBaseUrl}}" : "{{baseUrl}}"}${rawPath}`,
      );
      expect(item, `${op.method} ${op.path}`).toBeDefined();
      const test = item!.event.find((e) => e.listen === "test")!;
      expect(test.script.exec.join("\n")).toContain(`pm.response.to.have.status(${op.success.status})`);
      if (op.body) expect(item!.request.body?.raw.length).toBeGreaterThan(0);
      if (op.legacy) {
        expect(item!.request.header).toEqual(
          expect.arrayContaining([{ key: "Authorization", value: "Bearer {{apiKey}}:{{apiSecret}}" }]),
        );
      } else if (!op.public) {
        expect(item!.request.header).toEqual(
          expect.arrayContaining([
            { key: "x-api-key", value: "{{apiKey}}" },
            { key: "x-api-secret", value: "{{apiSecret}}" },
          ]),
        );
      }
    }
    const audits = items.find((i) => i.request.url.raw === "{{baseUrl}}/audits")!;
    expect(JSON.parse(audits.request.body!.raw)).toEqual({ url: "{{siteUrl}}" });
    const domains = collection.item.find((f) => f.name === "Domains")!.item;
    expect(domains.at(-1)!.request.method).toBe("DELETE");
  });
});
