import {
  EXAMPLE_DOMAIN,
  EXAMPLE_DOMAIN_PAGE,
  EXAMPLE_KEY_NAME,
  EXAMPLE_SITE_URL,
  EXAMPLE_WEBHOOK_URL,
} from "@/lib/routes/examples";
import type { OpenApiDocument, OpenApiOperation } from "./document";
import { API_ROUTES } from "./operations";

/** The parts of the Postman v2.1 format this generator writes. */
interface PostmanItem {
  name: string;
  request: {
    method: string;
    description?: string;
    header: { key: string; value: string; disabled?: boolean; description?: string }[];
    url: {
      raw: string;
      host: string[];
      path: string[];
      query?: { key: string; value: string; disabled?: boolean; description?: string }[];
    };
    body?: { mode: "raw"; raw: string; options?: { raw: { language: "json" | "text" } } };
  };
  event: { listen: "test" | "prerequest"; script: { type: "text/javascript"; exec: string[] } }[];
}
interface PostmanFolder {
  name: string;
  description?: string;
  item: PostmanItem[];
}
export interface PostmanCollection {
  info: { name: string; description: string; schema: string };
  variable: { key: string; value: string; type: "string"; description?: string }[];
  item: PostmanFolder[];
}

const POSTMAN_SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const PLACEHOLDER_JOB_ID = "00000000-0000-4000-8000-000000000000";
/**
 * The webhook (and key pair) id in the examples: the collection variable {{id}}, set by the requests that
 * create one.
 */
const EXAMPLE_WEBHOOK_ID = "00000000-0000-4000-8000-000000000001";
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Example values become collection variables, so one edit points every request at your own site. */
function templated(value: unknown, domainVar: string): unknown {
  if (value === EXAMPLE_SITE_URL) return "{{siteUrl}}";
  if (value === EXAMPLE_WEBHOOK_URL) return "{{webhookUrl}}";
  if (value === EXAMPLE_WEBHOOK_ID) return "{{id}}";
  // A pair's name is unique among active pairs: each run of the collection creates its own.
  if (value === EXAMPLE_KEY_NAME) return `${EXAMPLE_KEY_NAME} {{$timestamp}}`;
  if (value === EXAMPLE_DOMAIN) return `{{${domainVar}}}`;
  if (value === EXAMPLE_DOMAIN_PAGE) return `https://{{${domainVar}}}/pricing`;
  if (Array.isArray(value)) return value.map((v) => templated(v, domainVar));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === "timestamp" && typeof v === "string" ? "{{$isoTimestamp}}" : templated(v, domainVar),
      ]),
    );
  }
  return value;
}

function testScript(op: OpenApiOperation): string[] {
  const success = Object.keys(op.responses).find((s) => s.startsWith("2")) ?? "200";
  const enveloped = !["getOpenApiDocument", "getPostmanCollection", "mcp"].includes(op.operationId);
  // A connection read on an account without the connection answers the documented 400 naming where to connect
  // (or, on a server without a Google OAuth client, the settings that would enable it).
  const statusTest = op["x-needs-connection"]
    ? `pm.test("status ${success}, or 400 naming the connection to make", function () { if (pm.response.code === 400) { const e = pm.response.json().error; if (e.details.reason === "google_not_configured") { pm.expect(e.details.configure).to.be.an("array"); } else { pm.expect(["not_connected", "reconnect_required"]).to.include(e.details.reason); pm.expect(e.details.connectUrl).to.be.a("string"); } } else { pm.response.to.have.status(${success}); } });`
    : `pm.test("status ${success}", function () { pm.response.to.have.status(${success}); });`;
  const lines = [
    statusTest,
    `pm.test("JSON body", function () { pm.response.to.be.json; });`,
    `pm.test("X-Request-Id header", function () { pm.response.to.have.header("X-Request-Id"); });`,
    "const body = pm.response.json();",
  ];
  if (op.security === undefined || (op.security as unknown[]).length > 0) {
    lines.push(
      `pm.test("rate-limit headers", function () { ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"].forEach(function (h) { pm.response.to.have.header(h); }); });`,
    );
  }
  if (enveloped && op["x-needs-connection"]) {
    lines.push(
      `pm.test("envelope with requestId", function () { pm.expect(body.success).to.eql(pm.response.code === ${success}); pm.expect(body).to.have.property(pm.response.code === ${success} ? "data" : "error"); pm.expect(body.requestId).to.eql(pm.response.headers.get("X-Request-Id")); });`,
    );
  } else if (enveloped) {
    lines.push(
      `pm.test("envelope with requestId", function () { pm.expect(body.success).to.eql(true); pm.expect(body).to.have.property("data"); pm.expect(body.requestId).to.eql(pm.response.headers.get("X-Request-Id")); });`,
    );
  }
  if (op["x-tool"]) {
    lines.push(
      `pm.test("pending job with pollUrl and Location", function () { pm.expect(body.data.status).to.eql("pending"); pm.expect(body.data.pollUrl).to.eql("/api/v1/jobs/" + body.data.jobId); pm.expect(pm.response.headers.get("Location")).to.eql(body.data.pollUrl); });`,
      `pm.collectionVariables.set("jobId", body.data.jobId);`,
    );
  }
  if (op.operationId === "createWebhook" || op.operationId === "legacyCreateWebhook") {
    lines.push(
      `pm.test("signing secret shown once", function () { pm.expect(body.data.secret).to.match(/^whsec_/); });`,
      `pm.collectionVariables.set("id", body.data.id);`,
    );
  }
  if (op.operationId === "createMonitor" || op.operationId === "createSchedule") {
    lines.push(`pm.collectionVariables.set("id", body.data.id);`);
  }
  if (op.operationId === "createKey") {
    lines.push(
      `pm.test("secret shown once", function () { pm.expect(body.data.secret).to.match(/^sks_/); });`,
      `pm.collectionVariables.set("id", body.data.id);`,
    );
  }
  if (op.operationId === "listWebhookDeliveries") {
    lines.push(
      `if (body.data.deliveries.length) pm.collectionVariables.set("deliveryId", body.data.deliveries[0].id);`,
    );
  }
  if (op.operationId === "getJob") {
    lines.push(
      `pm.test("the job asked for", function () { pm.expect(body.data.jobId).to.eql(pm.variables.get("jobId")); pm.expect(["pending", "processing", "completed", "failed"]).to.include(body.data.status); });`,
    );
  }
  if (op.operationId === "getOpenApiDocument") {
    lines.push(`pm.test("OpenAPI 3.1", function () { pm.expect(body.openapi).to.match(/^3\\.1\\./); });`);
  }
  if (op.operationId === "getPostmanCollection") {
    lines.push(`pm.test("Postman v2.1", function () { pm.expect(body.info.schema).to.include("v2.1.0"); });`);
  }
  if (op.operationId === "mcp") {
    lines.push(
      `pm.test("JSON-RPC answer listing the tools", function () { pm.expect(body.jsonrpc).to.eql("2.0"); pm.expect(body.result.tools.length).to.be.above(0); });`,
    );
  }
  return lines;
}

function itemFor(
  legacy: boolean,
  path: string,
  method: string,
  op: OpenApiOperation,
  { domainVariable: domainVar, freshDomain: fresh }: { domainVariable: string; freshDomain?: boolean },
): PostmanItem {
  const segments = path
    .split("/")
    .filter(Boolean)
    .map((s) =>
      s.replace(/^\{(\w+)\}$/, (_m, name: string) => `{{${name === "domain" ? domainVar : name}}}`),
    );
  const query = (op.parameters ?? [])
    .filter((p) => p.in === "query")
    .map((p) => ({
      key: p.name,
      value: String(templated(p.example ?? "", domainVar)),
      ...(p.required || p.example !== undefined ? {} : { disabled: true }),
      ...(p.description ? { description: p.description } : {}),
    }));
  const header: PostmanItem["request"]["header"] = [];
  if (legacy) {
    header.push({ key: "Authorization", value: "Bearer {{apiKey}}:{{apiSecret}}" });
  } else if (op.security === undefined) {
    header.push({ key: "x-api-key", value: "{{apiKey}}" }, { key: "x-api-secret", value: "{{apiSecret}}" });
  }
  const content = op.requestBody?.content ?? {};
  const [contentType, media] = Object.entries(content)[0] ?? [];
  let body: PostmanItem["request"]["body"];
  if (contentType && media) {
    header.push({ key: "Content-Type", value: contentType });
    const example = templated(media.example, domainVar);
    body =
      contentType === "application/json"
        ? { mode: "raw", raw: JSON.stringify(example, null, 2), options: { raw: { language: "json" } } }
        : { mode: "raw", raw: String(example), options: { raw: { language: "text" } } };
  }
  if (op.operationId === "mcp") header.push({ key: "Accept", value: "application/json, text/event-stream" });
  if ((op.parameters ?? []).some((p) => p.name === "Idempotency-Key")) {
    header.push({
      key: "Idempotency-Key",
      value: "{{$guid}}",
      disabled: true,
      description: "Enable to make retries safe: a replay returns the original job, charged once.",
    });
  }
  const host = legacy ? "{{legacyBaseUrl}}" : "{{baseUrl}}";
  const raw = `${host}/${segments.join("/")}${
    query.length
      ? `?${query
          .filter((q) => !q.disabled)
          .map((q) => `${q.key}=${q.value}`)
          .join("&")}`
      : ""
  }`;
  const event: PostmanItem["event"] = [
    { listen: "test", script: { type: "text/javascript", exec: testScript(op) } },
  ];
  if (fresh) {
    // A fresh domain per run, so that registering, verifying and removing it leaves the account as it was.
    event.unshift({
      listen: "prerequest",
      script: {
        type: "text/javascript",
        exec: [`pm.collectionVariables.set("${domainVar}", "newman-" + Date.now() + ".example.com");`],
      },
    });
  }
  return {
    name: op.summary,
    request: {
      method: method.toUpperCase(),
      description: op.description,
      header,
      url: { raw, host: [host], path: segments, ...(query.length ? { query } : {}) },
      ...(body ? { body } : {}),
    },
    event,
  };
}

/** A Postman v2.1 collection of every operation of `doc`, foldered by tag in the document's tag order. */
export function buildPostmanCollection(doc: OpenApiDocument): PostmanCollection {
  const tags = (doc.tags as { name: string; description?: string }[]) ?? [];
  const postman = new Map(API_ROUTES.map((o) => [o.operationId, o.postman]));
  const folders = new Map<string, PostmanFolder>(
    tags.map((t) => [
      t.name,
      { name: t.name, ...(t.description ? { description: t.description } : {}), item: [] },
    ]),
  );
  const operationIdOf = new Map<PostmanItem, string>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    const legacy = "servers" in ops;
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const tag = op.tags[0] ?? "Other";
      if (!folders.has(tag)) folders.set(tag, { name: tag, item: [] });
      const options = postman.get(op.operationId);
      const item = itemFor(legacy, path, method, op, {
        domainVariable: options?.domainVariable ?? "domain",
        freshDomain: options?.freshDomain,
      });
      const items = folders.get(tag)!.item;
      // Ahead of the first request it must precede (the flow of a collection run), else at the end.
      const first = items.findIndex((i) => options?.before?.includes(operationIdOf.get(i) ?? ""));
      operationIdOf.set(item, op.operationId);
      items.splice(first === -1 ? items.length : first, 0, item);
    }
  }
  const servers = (doc.servers as { url: string }[] | undefined) ?? [];
  const info = doc.info as { title: string; description: string };
  return {
    info: {
      name: `${info.title} v1`,
      description: `${info.description}\n\nSet the variables apiKey and apiSecret (and domain, a domain registered on your account) before running.`,
      schema: POSTMAN_SCHEMA,
    },
    variable: [
      { key: "baseUrl", value: servers[0]?.url ?? "", type: "string", description: "The /api/v1 root." },
      { key: "apiKey", value: "", type: "string", description: "Your x-api-key." },
      { key: "apiSecret", value: "", type: "string", description: "Your x-api-secret." },
      {
        key: "domain",
        value: EXAMPLE_DOMAIN,
        type: "string",
        description: "A domain registered on your account.",
      },
      { key: "siteUrl", value: EXAMPLE_SITE_URL, type: "string", description: "The page the tools analyse." },
      {
        key: "jobId",
        value: PLACEHOLDER_JOB_ID,
        type: "string",
        description: "Set by each tool request's test script to the job it created.",
      },
      { key: "newDomain", value: "", type: "string", description: "Set by the Domains requests." },
      {
        key: "legacyBaseUrl",
        value: (servers[0]?.url ?? "").replace(/\/v1\/?$/, ""),
        type: "string",
        description:
          "The older interface's root (/api); its requests send Authorization: Bearer <key>:<secret>.",
      },
      {
        key: "webhookUrl",
        value: EXAMPLE_WEBHOOK_URL,
        type: "string",
        description:
          "Where the webhook requests point the endpoint they create (a public http(s) URL of yours).",
      },
      {
        key: "id",
        value: EXAMPLE_WEBHOOK_ID,
        type: "string",
        description: "Set by the requests that create a webhook, a key pair, a monitor or a schedule.",
      },
      {
        key: "deliveryId",
        value: "00000000-0000-4000-8000-000000000002",
        type: "string",
        description: "Set by the delivery log request.",
      },
    ],
    // Destructive requests last in each folder, so a run reads and checks before it removes.
    item: [...folders.values()]
      .filter((f) => f.item.length > 0)
      .map((f) => ({
        ...f,
        item: [
          ...f.item.filter((i) => i.request.method !== "DELETE"),
          ...f.item.filter((i) => i.request.method === "DELETE"),
        ],
      })),
  };
}
