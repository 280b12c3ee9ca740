import { z } from "zod";
import { jsonArgsFromQuery } from "@/lib/contract/query";
import { type ErrorCode, notFound, parseValue } from "@/lib/errors";
import type { ToolName } from "@/lib/tools/catalog";

/**
 * The contract of one /api/v1 operation, declared once (as `createRoute` does in zod-openapi): its path,
 * method, request (path parameters, query, body) and response schemas, the errors it may answer and its
 * documentation. The route file implements it (`implement` in lib/api/implement.ts parses the request with
 * these very schemas), and the OpenAPI document, the Postman collection, docs/api.md, the docs page and the
 * MCP tools that mirror a route are derived from it.
 */

export const TAGS = [
  {
    name: "Tools",
    description: "Credit-billed tools. Each POST creates an asynchronous job (202) and charges its cost.",
  },
  { name: "Jobs", description: "Poll a job until it is completed or failed. Free." },
  { name: "Credits", description: "The credit balance and its ledger. Free." },
  {
    name: "Tracking",
    description: "AI and search bot visits of your registered domains: ingest and reports. Free.",
  },
  { name: "Domains", description: "The domains registered on the account. Free." },
  {
    name: "Monitors",
    description:
      "AI visibility monitoring: tracked prompts asked of the AI engines on a schedule, billed per answer, reported with sample sizes, 95% intervals and significance tests.",
  },
  {
    name: "Schedules",
    description:
      "Scheduled site audits: the URL audit, the SEO/AEO/GEO audit, Core Web Vitals or AI access run on a URL daily or weekly, billed per run, kept 13 months as history with what changed since the run before.",
  },
  {
    name: "AI visibility",
    description: "The AI engines this server asks, and what completed AI checks observed over time. Free.",
  },
  {
    name: "Search and analytics",
    description:
      "The account's own Google Search Console and web analytics (GA4 or Plausible), read through the connections made in the dashboard. Free.",
  },
  {
    name: "Webhooks",
    description:
      "Endpoints that receive signed events (Standard Webhooks): job.completed, job.failed, citation.detected, credits.low, webhook.test, and the monitors' monitor.run_completed, monitor.run_skipped, visibility.changed, citation.gained, citation.lost, and the scheduled audits' audit.completed, audit.regressed, audit.run_skipped. Free.",
  },
  {
    name: "Keys",
    description:
      "The account's named API key pairs: create one per integration, roll one with a window in which the old pair still works, revoke at once. Free.",
  },
  { name: "MCP", description: "The hosted Model Context Protocol endpoint for AI assistants." },
  { name: "Meta", description: "This document and the Postman collection." },
  {
    name: "Legacy interface",
    description:
      "The older, unversioned interface under /api that existing integrations still call: `Authorization: Bearer <token>` (a legacy API token from the dashboard or the admin CLI, or `<key>:<secret>`), JSON bodies, the same envelope, rate limit and error codes as v1. Operations with a v1 equivalent are deprecated.",
  },
] as const;
type Tag = (typeof TAGS)[number]["name"];

/**
 * The deprecated operations (the older interface's operations that v1 has): deprecated since `since`, answered
 * until `sunset`. Every answer of one carries `Deprecation` (RFC 9745: `@` and the Unix time) and `Sunset`
 * (RFC 8594: an HTTP-date), and a `Link` to the documentation.
 */
export const DEPRECATION = {
  since: new Date("2026-12-01T00:00:00Z"),
  sunset: new Date("2027-06-01T00:00:00Z"),
  link: '</docs/api>; rel="deprecation"; type="text/html"',
} as const;

/** The headers of every answer of a deprecated operation. */
export function deprecationHeaders(): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(DEPRECATION.since.getTime() / 1000)}`,
    Sunset: DEPRECATION.sunset.toUTCString(),
    Link: DEPRECATION.link,
  };
}

/** A response body: a zod schema (named as a component) or a reference to a component built elsewhere. */
export type BodySchema<S extends z.ZodType = z.ZodType> = { name: string; schema: S } | { ref: string };

export interface PathParam<N extends string = string> {
  name: N;
  description: string;
  /** Validates the segment (after Next decodes it); the same schema is documented. */
  schema: z.ZodType<string, string>;
  example: string;
  /**
   * A value the schema refuses names nothing: answer NOT_FOUND of this resource (a jobId that is no UUID)
   * instead of 400.
   */
  notFound?: string;
}

interface RequestBody<S extends z.ZodType = z.ZodType> {
  /** The component name in the OpenAPI document. */
  name: string;
  schema: S;
  example: unknown;
  /** Default application/json. Other types are read by the handler itself (an access log, gzip or not). */
  contentType?: string;
  description?: string;
  /**
   * "schema" (default): the JSON body is parsed with `schema` before the handler runs. "service": the JSON is
   * handed over as sent, because the service applies `schema` item by item (a batch of tracking events, each
   * accepted or rejected alone) and `schema` documents what it applies. "handler": the body is left unread
   * for the handler (the MCP transport reads its JSON-RPC messages itself). A body that is not JSON is
   * always the handler's to read.
   */
  validation?: "schema" | "service" | "handler";
}

interface SuccessResponse<D extends z.ZodType = z.ZodType> {
  status: 200 | 201 | 202;
  description: string;
  /** `data` of the envelope; the handler's answer is type-checked against it (`z.infer`). */
  data?: BodySchema<D>;
  /** The whole body, when the answer is not enveloped (the OpenAPI document, MCP's JSON-RPC). */
  raw?: BodySchema;
  location?: boolean;
}

export interface RouteContract<
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  D extends z.ZodType = z.ZodType,
  P extends string = string,
> {
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI path under /api/v1, with {param}s. */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  /** No credentials needed (only the OpenAPI document itself). */
  public?: boolean;
  /**
   * An operation of the older interface: `path` is under /api (not /api/v1), and `implement` authenticates
   * `Authorization: Bearer <token>` (a legacy token or `<key>:<secret>`) instead of the key pair headers.
   */
  legacy?: boolean;
  /** Kept for existing integrations; the description names the v1 operation to use instead. */
  deprecated?: boolean;
  pathParams?: readonly PathParam<P>[];
  query?: Q;
  /**
   * Query parameters that start with this prefix are ignored instead of refused as unknown: a sender that sets
   * its request headers through URL parameters it may also leave in the URL (Cloudflare Logpush's `header_*`).
   */
  ignoredQueryPrefix?: string;
  queryExample?: Record<string, string>;
  body?: B extends z.ZodType ? RequestBody<B> : undefined;
  /** Tool POSTs accept an Idempotency-Key header. */
  idempotencyKey?: boolean;
  success: SuccessResponse<D>;
  /** Errors particular to this operation; authenticated operations add 401, 403, 429 and 500. */
  errors: ErrorCode[];
  /** Credits charged, in words, for tool endpoints. */
  cost?: string;
  /** The tool whose job a POST creates. */
  tool?: ToolName;
  /**
   * Reads a customer's own data through a dashboard connection (Google, Plausible): Postman's test accepts
   * the documented 400 `not_connected` as well, since a fresh account has none.
   */
  needsConnection?: true;
  /**
   * Postman: the collection variable that stands for `domain` here (default `domain`, the account's own),
   * and whether the request first sets it to a fresh name (so a run registers and removes its own domain).
   */
  /**
   * Postman: the domain variable the request uses, and `before`: the operationIds this request must run ahead
   * of in its folder (a collection run is a flow: a test event is sent before the delivery log is read).
   */
  postman?: { domainVariable?: string; freshDomain?: boolean; before?: string[] };
}

/** Any declared contract, whatever its schemas. */
// biome-ignore lint/suspicious/noExplicitAny: the collection holds contracts of every shape
export type AnyRouteContract = RouteContract<any, any, any, any>;

/**
 * Declares a route's contract. The literal's own type is kept (schemas, parameter names, the body's
 * validation), so `implement` types the route's handler from it.
 */
export function defineRoute<const C extends AnyRouteContract>(contract: C & RouteContractOf<C>): C {
  return contract;
}

/** Checks a literal against `RouteContract` with its own schemas (so a typo in a field is an error). */
type RouteContractOf<C> = RouteContract<
  Prop<C, "query"> extends z.ZodObject ? Prop<C, "query"> : undefined,
  Prop<Prop<C, "body">, "schema"> extends z.ZodType ? Prop<Prop<C, "body">, "schema"> : undefined,
  z.ZodType,
  string
>;

/** The type of an optional property, without undefined (never when absent). */
export type Prop<C, K extends string> = C extends { [P in K]?: infer V } ? NonNullable<V> : never;

/** Is this export a declared contract (what `collectContracts` gathers from a module)? */
export function isRouteContract(value: unknown): value is AnyRouteContract {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { operationId?: unknown }).operationId === "string" &&
    typeof (value as { path?: unknown }).path === "string" &&
    typeof (value as { method?: unknown }).method === "string" &&
    typeof (value as { success?: unknown }).success === "object"
  );
}

/** A path segment checked against its declared schema: 400 naming it, or the resource's 404. */
export function parsePathParam(param: PathParam, value: unknown): string {
  if (param.notFound !== undefined) {
    const parsed = param.schema.safeParse(value);
    if (!parsed.success) throw notFound(param.notFound);
    return parsed.data;
  }
  return parseValue(param.schema, value, param.name);
}

/**
 * A route's request as typed JSON arguments (MCP tools that mirror a route): its path parameters, then its
 * query parameters with numbers as numbers (same bounds, defaults and descriptions). A parameter whose bad
 * value means "not found" is taken as a string and checked with `parsePathParam`, as the route does.
 */
export function routeArgs(contract: AnyRouteContract): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const p of (contract.pathParams ?? []) as readonly PathParam[]) {
    shape[p.name] = (p.notFound !== undefined ? z.string() : p.schema).describe(p.description);
  }
  if (contract.query) Object.assign(shape, jsonArgsFromQuery(contract.query).shape);
  return z.object(shape).strict();
}
