import { ERROR_STATUS, type ErrorCode } from "@/lib/api/errors";
import { type JsonSchema, toJsonSchema } from "@/lib/contract/json-schema";
import { jobSummary, jobView } from "@/lib/jobs/view";
import {
  type AnyRouteContract,
  type BodySchema,
  DEPRECATION,
  deprecationHeaders,
  TAGS,
} from "@/lib/routes/contract";
import { pascal, toolAvailable } from "@/lib/routes/tools";
import { TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";
import { API_ROUTES } from "./operations";
import { errorCode, errorEnvelope } from "./schemas";

export type OpenApiDocument = Record<string, unknown> & {
  /** A path item holds its operations by method, and `servers` for the older interface's paths (under /api). */
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: Record<string, Record<string, unknown>>;
};
export type OpenApiOperation = Record<string, unknown> & {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, Record<string, unknown>>;
  security?: unknown[];
  "x-cost"?: string;
  deprecated?: boolean;
};

const HTTP_METHODS = new Set(["get", "post", "put", "patch", "delete"]);

/**
 * Every operation of the document with the path a client calls: `/api/v1/…`-relative paths as they are, the older
 * interface's (a path item with its own `servers`) prefixed `/api`.
 */
export function operationsOf(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) => {
    const legacy = "servers" in item;
    return Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, op]) => ({ path, callPath: legacy ? `/api${path}` : path, method, op, legacy }));
  });
}
interface OpenApiParameter {
  name: string;
  in: "query" | "path" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
  example?: unknown;
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const ERROR_RESPONSES: Record<
  number,
  { name: string; codes: ErrorCode[]; description: string; example: object }
> = {
  400: {
    name: "BadRequest",
    codes: ["VALIDATION_ERROR"],
    description:
      "VALIDATION_ERROR: a parameter is missing or malformed; also malformed JSON, a non-JSON content type, a body over 1 MB, unknown or repeated query parameters. `details` names the field.",
    example: {
      field: "url",
      issues: [{ field: "url", message: "Must be an absolute http(s) URL." }],
    },
  },
  401: {
    name: "Unauthorized",
    codes: ["UNAUTHORIZED"],
    description: "UNAUTHORIZED: missing or invalid x-api-key / x-api-secret.",
    example: {},
  },
  402: {
    name: "InsufficientCredits",
    codes: ["INSUFFICIENT_CREDITS"],
    description:
      "INSUFFICIENT_CREDITS: the balance is below the cost; `details.required` and `details.available`.",
    example: { required: 50, available: 30 },
  },
  403: {
    name: "Forbidden",
    codes: ["FORBIDDEN_SCOPE", "HTTPS_REQUIRED"],
    description:
      "FORBIDDEN_SCOPE: the key may not access the resource (e.g. a domain not registered on the account). HTTPS_REQUIRED: the request came over plain HTTP (documented addition).",
    example: { domain: "not-mine.example" },
  },
  404: {
    name: "NotFound",
    codes: ["NOT_FOUND"],
    description: "NOT_FOUND: the resource does not exist or is not the caller's.",
    example: {},
  },
  429: {
    name: "RateLimited",
    codes: ["RATE_LIMITED"],
    description: "RATE_LIMITED: the key's per-minute limit is spent; retry after `Retry-After` seconds.",
    example: { retryAfterSeconds: 42 },
  },
  500: {
    name: "InternalError",
    codes: ["INTERNAL_ERROR"],
    description: "INTERNAL_ERROR: a server-side failure; retry, and quote requestId if it persists.",
    example: {},
  },
};

const AUTH_ERRORS: ErrorCode[] = ["UNAUTHORIZED", "FORBIDDEN_SCOPE", "RATE_LIMITED", "INTERNAL_ERROR"];

function headerComponents() {
  const int = { type: "integer", minimum: 0 };
  return {
    "X-Request-Id": {
      description: "The response's requestId (also in the body).",
      schema: { type: "string" },
    },
    "RateLimit-Limit": { description: "Requests allowed per window for this key.", schema: int },
    "RateLimit-Remaining": { description: "Requests left in the current window.", schema: int },
    "RateLimit-Reset": { description: "Seconds until the window resets.", schema: int },
    "RateLimit-Policy": {
      description: "The limit and window, e.g. `60;w=60`.",
      schema: { type: "string", example: "60;w=60" },
    },
    "Retry-After": { description: "Seconds to wait before retrying (on 429).", schema: int },
    Location: { description: "The job's poll URL, /api/v1/jobs/<jobId>.", schema: { type: "string" } },
    Allow: { description: "The methods the path answers (on 405).", schema: { type: "string" } },
    "Idempotent-Replayed": {
      description: "`true` when the answer replays an earlier request with the same Idempotency-Key.",
      schema: { type: "string", enum: ["true"] },
    },
    Deprecation: {
      description: `On every answer of a deprecated operation (RFC 9745): deprecated since ${DEPRECATION.since.toISOString()}, as \`@\` and the Unix time.`,
      schema: { type: "string", example: deprecationHeaders().Deprecation },
    },
    Sunset: {
      description: `On every answer of a deprecated operation (RFC 8594): answered until ${DEPRECATION.sunset.toISOString()}, as an HTTP-date.`,
      schema: { type: "string", example: deprecationHeaders().Sunset },
    },
  };
}

function responseHeaders(op: Pick<AnyRouteContract, "public">, extra: string[] = []) {
  const names = ["X-Request-Id", ...(op.public ? [] : RATE_HEADERS), ...extra];
  return Object.fromEntries(names.map((n) => [n, ref("headers", n)]));
}
const RATE_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"];

function envelopeOf(data: JsonSchema): JsonSchema {
  return {
    type: "object",
    required: ["success", "data", "requestId"],
    properties: { success: { const: true }, data, requestId: { type: "string" } },
  };
}

/** Builds the document. `serverUrl` is where /api/v1 is served (absolute when built for a request). */
export function buildOpenApiDocument(
  opts: { serverUrl?: string; operations?: AnyRouteContract[] } = {},
): OpenApiDocument {
  const operations = opts.operations ?? API_ROUTES;
  const schemas: Record<string, JsonSchema> = {};
  const responses: Record<string, unknown> = {};

  const schemaRef = (body: BodySchema, io: "input" | "output") => {
    if ("ref" in body) return ref("schemas", body.ref);
    schemas[body.name] ??= toJsonSchema(body.schema, io);
    return ref("schemas", body.name);
  };

  // Results of each tool, and the Job whose `result` is one of them.
  for (const name of TOOL_NAMES) {
    schemas[`${pascal(name)}Result`] = toolAvailable(name)
      ? { description: `data.result of a completed ${name} job.`, ...toJsonSchema(TOOLS[name].result) }
      : {
          description: `Not available on this server yet: ${name} jobs fail with TOOL_UNAVAILABLE and are refunded, so no ${name} job ever has a result.`,
          not: {},
        };
  }
  schemas.JobSummary = toJsonSchema(jobSummary);
  const job = toJsonSchema(jobView) as {
    properties: Record<string, unknown>;
  };
  job.properties.result = {
    description:
      "Present once status is completed; the result schema of the job's `tool`. Tools not available on this server yet never complete.",
    oneOf: TOOL_NAMES.filter(toolAvailable).map((n) => ref("schemas", `${pascal(n)}Result`)),
  };
  schemas.Job = job as JsonSchema;
  schemas.ErrorCode = {
    ...toJsonSchema(errorCode),
    description: Object.entries(ERROR_STATUS)
      .map(([code, status]) => `${code} (${status})`)
      .join(", "),
  };
  schemas.ErrorEnvelope = toJsonSchema(errorEnvelope);
  schemas.OpenApiDocument = {
    type: "object",
    description: "An OpenAPI 3.1 document.",
    required: ["openapi", "info", "paths"],
  };
  schemas.PostmanCollection = {
    type: "object",
    description: "A Postman collection, format v2.1 (https://schema.getpostman.com/json/collection/v2.1.0/).",
    required: ["info", "item"],
  };

  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    responses[r.name] = {
      description: r.description,
      headers: responseHeaders({}, status === "429" ? ["Retry-After"] : []),
      content: {
        "application/json": {
          schema: ref("schemas", "ErrorEnvelope"),
          example: {
            success: false,
            error: { code: r.codes[0], message: r.description.split(": ")[1], details: r.example },
            requestId: "req_3J9hQm4rT0xYc2VbN8kLpA",
          },
        },
      },
    };
  }

  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const legacyServerUrl = (opts.serverUrl ?? "/api/v1").replace(/\/v1\/?$/, "");
  for (const op of operations) {
    const parameters: OpenApiParameter[] = [];
    for (const p of op.pathParams ?? []) {
      parameters.push({
        name: p.name,
        in: "path",
        required: true,
        description: p.description,
        schema: toJsonSchema(p.schema, "input"),
        example: p.example,
      });
    }
    if (op.query) {
      const q = toJsonSchema(op.query, "input") as {
        properties?: Record<string, JsonSchema>;
        required?: string[];
      };
      for (const [name, schema] of Object.entries(q.properties ?? {})) {
        const { description, ...rest } = schema;
        parameters.push({
          name,
          in: "query",
          required: q.required?.includes(name) ?? false,
          ...(typeof description === "string" ? { description } : {}),
          schema: rest,
          ...(op.queryExample?.[name] !== undefined ? { example: op.queryExample[name] } : {}),
        });
      }
    }
    if (op.idempotencyKey) parameters.push({ ...IDEMPOTENCY_PARAMETER });

    const success = op.success;
    const successBody = success.raw
      ? schemaRef(success.raw, "output")
      : success.data
        ? envelopeOf(schemaRef(success.data, "output"))
        : undefined;
    const opResponses: Record<string, Record<string, unknown>> = {
      [success.status]: {
        description: success.description,
        headers: responseHeaders(op, [
          ...(success.location ? ["Location"] : []),
          ...(op.idempotencyKey ? ["Idempotent-Replayed"] : []),
          ...(op.deprecated ? ["Deprecation", "Sunset"] : []),
        ]),
        ...(successBody ? { content: { "application/json": { schema: successBody } } } : {}),
      },
    };
    const codes = new Set<ErrorCode>([
      ...op.errors,
      ...(op.public ? ["INTERNAL_ERROR" as const] : AUTH_ERRORS),
    ]);
    for (const code of codes) {
      const status = ERROR_STATUS[code];
      const r = ERROR_RESPONSES[status];
      if (r) opResponses[status] = ref("responses", r.name);
    }

    const operation: OpenApiOperation = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      description: op.description,
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: {
                [op.body.contentType ?? "application/json"]: {
                  schema: schemaRef({ name: op.body.name, schema: op.body.schema }, "input"),
                  example: op.body.example,
                },
              },
            },
          }
        : {}),
      responses: opResponses,
      ...(op.public ? { security: [] } : {}),
      ...(op.legacy ? { security: [{ LegacyBearer: [] }] } : {}),
      ...(op.deprecated ? { deprecated: true } : {}),
      ...(op.cost ? { "x-cost": op.cost } : {}),
      ...(op.tool ? { "x-tool": op.tool } : {}),
      ...(op.needsConnection ? { "x-needs-connection": true } : {}),
    };
    paths[op.path] ??= {};
    if (op.legacy) {
      // The older interface lives under /api, not /api/v1: its paths carry their own server.
      (paths[op.path] as Record<string, unknown>).servers = [
        { url: legacyServerUrl, description: "The older interface (unversioned)" },
      ];
    }
    paths[op.path]![op.method] = operation;
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Findable API",
      version: "1.0.0",
      summary: "Search-engine and AI-search optimisation: data endpoints, credit-billed tools, hosted MCP.",
      description: INFO_DESCRIPTION,
    },
    servers: [{ url: opts.serverUrl ?? "/api/v1", description: "Version 1" }],
    tags: TAGS.map((t) => ({ ...t })),
    security: [{ ApiKey: [], ApiSecret: [] }, { BearerKeySecret: [] }],
    paths,
    components: {
      securitySchemes: {
        ApiKey: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description: "The public key id (sk_live_…).",
        },
        ApiSecret: {
          type: "apiKey",
          in: "header",
          name: "x-api-secret",
          description: "The secret shown once when the pair was created. Keep it out of client-side code.",
        },
        LegacyBearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "lt_… | <key>:<secret>",
          description:
            "The older interface (paths under /api): `Authorization: Bearer <token>`, a legacy API token (`lt_…`, created in the dashboard or the admin CLI, shown once) or `<key>:<secret>`. Same rate limit as the account's key.",
        },
        BearerKeySecret: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "<key>:<secret>",
          description:
            "For clients that can only send a bearer token: `Authorization: Bearer <key>:<secret>`.",
        },
      },
      schemas,
      responses,
      headers: headerComponents(),
    },
  };
}

const IDEMPOTENCY_PARAMETER: OpenApiParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "1 to 255 visible ASCII characters. A replay with the same body returns the original 202 (same jobId, no second charge); the same key with a different body is 400 VALIDATION_ERROR with details.reason idempotency_key_reused.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

const INFO_DESCRIPTION = `JSON over HTTPS. Every request carries \`x-api-key\` and \`x-api-secret\` (or \`Authorization: Bearer <key>:<secret>\`), except GET /openapi.json.

Every response body is the envelope \`{ success, data | error: { code, message, details }, requestId }\` (except this document, the Postman collection and MCP's JSON-RPC answers), with an \`X-Request-Id\` header and the rate-limit headers \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` (seconds), \`RateLimit-Policy\` (default \`60;w=60\`, per key), and \`Retry-After\` on 429.

Errors: ${Object.entries(ERROR_STATUS)
  .map(([code, status]) => `\`${code}\` ${status}`)
  .join(
    ", ",
  )}. \`HTTPS_REQUIRED\` (plain HTTP in production) and \`METHOD_NOT_ALLOWED\` (a method a path does not answer, with an \`Allow\` header) are documented additions to the spec's table.

Tool endpoints are billed in credits and asynchronous: POST answers 202 with a pending job, then poll GET /jobs/{jobId} until \`completed\` or \`failed\`. A failed job's credits are refunded automatically. Jobs are kept 7 days.`;
