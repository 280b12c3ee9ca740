import { z } from "zod";
import { type Db, getDb } from "@/lib/db/client";
import { AppError, zodValidationError } from "@/lib/errors";
import { type AuthenticatedKey, authenticateKey, touchKeyLastUsed } from "@/lib/keys/keys";
import {
  ApiResult,
  errorResponse,
  internalErrorResponse,
  newRequestId,
  ok,
  successResponse,
} from "./envelope";
import { clientIp, HSTS, isInsecureRequest } from "./https";
import { checkPathParams } from "./parse";
import { DEFAULT_RATE_LIMIT, hitRateLimit, rateLimitHeaders, WINDOW_SECONDS } from "./rate-limit";

export interface ApiContext<P extends Record<string, string | string[]>> {
  req: Request;
  url: URL;
  db: Db;
  auth: AuthenticatedKey;
  params: P;
  requestId: string;
}

type RouteArgs = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (req: Request, args: RouteArgs) => Promise<Response>;

function baseHeaders(): Record<string, string> {
  return process.env.NODE_ENV === "production" ? { "Strict-Transport-Security": HSTS } : {};
}

/** Credentials from x-api-key + x-api-secret, or `Authorization: Bearer <key>:<secret>` (MCP clients). */
function readCredentials(req: Request): { key: string; secret: string } | null {
  const key = req.headers.get("x-api-key");
  const secret = req.headers.get("x-api-secret");
  if (key && secret) return { key: key.trim(), secret: secret.trim() };
  const authz = req.headers.get("authorization");
  const match = authz?.match(/^Bearer\s+([^:\s]+):(\S+)$/i);
  return match ? { key: match[1]!, secret: match[2]! } : null;
}

export interface ApiKeyOptions {
  /** How many requests this one counts as against the key's limit (a JSON-RPC batch counts each message). */
  weight?: (req: Request) => Promise<number>;
  /**
   * Another way to read and check credentials (the older interface's bearer tokens); `given` says whether the
   * request carried any, `message` explains a refusal. Default: the key pair.
   */
  authenticate?: (
    db: Db,
    req: Request,
  ) => Promise<{ auth: AuthenticatedKey | null; given: boolean; message?: string }>;
}

async function authenticateKeyPair(
  db: Db,
  req: Request,
): Promise<{ auth: AuthenticatedKey | null; given: boolean; message?: string }> {
  const creds = readCredentials(req);
  return {
    auth: creds ? await authenticateKey(db, creds.key, creds.secret) : null,
    given: creds !== null,
  };
}

/**
 * Every /api/v1 handler runs inside this: request id, HTTPS rule, key auth, the shared rate limit,
 * and the spec's envelope for whatever the handler returns or throws.
 */
export function withApiKey<P extends Record<string, string | string[]> = Record<string, never>>(
  handler: (ctx: ApiContext<P>) => Promise<ApiResult | Response>,
  opts: ApiKeyOptions = {},
): RouteHandler {
  return async (req, args) => {
    const requestId = newRequestId();
    let headers = baseHeaders();
    try {
      const url = new URL(req.url);
      const db = await getDb();
      if (isInsecureRequest(req, url)) await refuseInsecure(db, req);
      const { auth, given, message } = await (opts.authenticate ?? authenticateKeyPair)(db, req);
      if (!auth) {
        const ipLimit = await hitRateLimit(db, `ip:${clientIp(req)}`, DEFAULT_RATE_LIMIT);
        headers = { ...headers, ...rateLimitHeaders(ipLimit) };
        if (!ipLimit.allowed) throw rateLimited(ipLimit.reset);
        throw new AppError(
          "UNAUTHORIZED",
          message ??
            (given
              ? "The x-api-key / x-api-secret pair is not valid (wrong, rotated or revoked)."
              : "Send your credentials in the x-api-key and x-api-secret headers."),
        );
      }
      const weight = opts.weight ? Math.max(1, await opts.weight(req)) : 1;
      const limit = await hitRateLimit(
        db,
        `key:${auth.apiKeyId}`,
        auth.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT,
        WINDOW_SECONDS,
        weight,
      );
      headers = { ...headers, ...rateLimitHeaders(limit) };
      if (!limit.allowed) throw rateLimited(limit.reset);
      if (limit.firstInWindow) await touchKeyLastUsed(db, auth.apiKeyId);
      const params = checkPathParams((await args.params) as P);
      const result = await handler({ req, url, db, auth, params, requestId });
      if (result instanceof ApiResult) return successResponse(result, requestId, headers);
      for (const [k, v] of Object.entries({ ...headers, "x-request-id": requestId }))
        result.headers.set(k, v);
      return result;
    } catch (err) {
      return failureResponse(err, requestId, headers);
    }
  };
}

/**
 * A plain-HTTP request is refused before its credentials are looked at; it still counts against the
 * per-IP limit, and the refusal carries the limit's headers like any other answer.
 */
async function refuseInsecure(db: Db, req: Request): Promise<never> {
  const limit = await hitRateLimit(db, `ip:${clientIp(req)}`, DEFAULT_RATE_LIMIT);
  if (!limit.allowed) throw withHeaders(rateLimited(limit.reset), rateLimitHeaders(limit));
  throw withHeaders(
    new AppError("HTTPS_REQUIRED", "This API is only served over HTTPS."),
    rateLimitHeaders(limit),
  );
}

const withHeaders = (err: AppError, headers: Record<string, string>) =>
  new AppError(err.code, err.message, err.details, { ...headers, ...err.headers });

/** A thrown error as the envelope: a domain error as its code, a stray zod error as 400 naming the field. */
function failureResponse(err: unknown, requestId: string, headers: Record<string, string>): Response {
  if (err instanceof AppError) return errorResponse(err, requestId, headers);
  if (err instanceof z.ZodError) return errorResponse(zodValidationError(err), requestId, headers);
  return internalErrorResponse(err, requestId, headers);
}

function rateLimited(reset: number) {
  return new AppError("RATE_LIMITED", `Rate limit exceeded. Retry after ${Math.max(1, reset)} s.`, {
    retryAfterSeconds: Math.max(1, reset),
  });
}

/** For routes that need no key (the OpenAPI document, unknown paths): request id and envelope only. */
export function withEnvelope(
  handler: (ctx: { req: Request; url: URL; requestId: string }) => Promise<ApiResult | Response>,
): RouteHandler {
  return async (req) => {
    const requestId = newRequestId();
    const headers = baseHeaders();
    try {
      const result = await handler({ req, url: new URL(req.url), requestId });
      if (result instanceof ApiResult) return successResponse(result, requestId, headers);
      result.headers.set("x-request-id", requestId);
      return result;
    } catch (err) {
      return failureResponse(err, requestId, headers);
    }
  };
}

/**
 * For /api/v1 answers that need no key (the OpenAPI document, the Postman collection, unknown paths,
 * OPTIONS): request id, the HTTPS rule, the per-IP rate limit with its headers, and the envelope.
 */
export function withPublicApi(
  handler: (ctx: { req: Request; url: URL; requestId: string }) => Promise<ApiResult | Response>,
): RouteHandler {
  return async (req) => {
    const requestId = newRequestId();
    let headers = baseHeaders();
    try {
      const url = new URL(req.url);
      const db = await getDb();
      if (isInsecureRequest(req, url)) await refuseInsecure(db, req);
      const limit = await hitRateLimit(db, `ip:${clientIp(req)}`, DEFAULT_RATE_LIMIT);
      headers = { ...headers, ...rateLimitHeaders(limit) };
      if (!limit.allowed) throw rateLimited(limit.reset);
      const result = await handler({ req, url, requestId });
      if (result instanceof ApiResult) return successResponse(result, requestId, headers);
      for (const [k, v] of Object.entries({ ...headers, "x-request-id": requestId }))
        result.headers.set(k, v);
      return result;
    } catch (err) {
      return failureResponse(err, requestId, headers);
    }
  };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type Method = (typeof METHODS)[number];

/**
 * How a route answers a method that is none of its exports' names, keyed by the route's OPTIONS export:
 * `methods` registers its 405, `anyMethod` the one handler it answers everything with.
 */
const OTHER_METHODS = new WeakMap<RouteHandler, (method: string) => RouteHandler>();

/**
 * A route's exports: the given handlers; OPTIONS answers which methods the path allows (in the
 * envelope, with `Allow`; no key needed, as a browser's preflight carries none); every other method
 * is a JSON 405 with `Allow`. On a route that needs a key the 405 comes after authentication, so a
 * request without credentials is 401 first, and it counts against the key's rate limit.
 */
export function methods(
  handlers: Partial<Record<Exclude<Method, "OPTIONS">, RouteHandler>>,
  opts: { public?: boolean; authenticate?: ApiKeyOptions["authenticate"] } = {},
): Record<Method, RouteHandler> {
  // OPTIONS always answers, so Allow names the methods that do something.
  const allowed = METHODS.filter((m) => m !== "OPTIONS" && handlers[m]);
  const allow = allowed.join(", ");
  // The method named is the request's own, or one the request could not carry (the edge's TRACE, PROPFIND…).
  const refusal =
    (method?: string) =>
    async ({ req }: { req: Request }): Promise<never> => {
      throw new AppError(
        "METHOD_NOT_ALLOWED",
        `${method ?? req.method} is not allowed here. Allowed: ${allow}.`,
        { allow: allowed },
        { Allow: allow },
      );
    };
  const wrap = (fn: ReturnType<typeof refusal>) =>
    opts.public ? withPublicApi(fn) : withApiKey(fn, { authenticate: opts.authenticate });
  const notAllowed = wrap(refusal());
  const options = withPublicApi(async () => ok({ allow: allowed }, { Allow: allow }));
  // A method outside GET…OPTIONS (PROPFIND, LOCK, TRACE…) has no export to reach: the production server's
  // edge (lib/server/api-edge.ts) asks for this same refusal by name.
  OTHER_METHODS.set(options, (method) => wrap(refusal(method)));
  return Object.fromEntries(
    METHODS.map((m) => [m, m === "OPTIONS" ? options : (handlers[m] ?? notAllowed)]),
  ) as Record<Method, RouteHandler>;
}

/** The handler a route module gives a method outside GET…OPTIONS, when the module says (else undefined). */
export function otherMethodHandler(
  module: Partial<Record<string, unknown>>,
  method: string,
): RouteHandler | undefined {
  const options = module.OPTIONS;
  return typeof options === "function" ? OTHER_METHODS.get(options as RouteHandler)?.(method) : undefined;
}

/** Registers how a route (by its OPTIONS export) answers any method outside GET…OPTIONS. */
export function registerOtherMethods(options: RouteHandler, answer: (method: string) => RouteHandler): void {
  OTHER_METHODS.set(options, answer);
}

/** A route that answers every method alike (an unknown path's 404): its exports, GET to OPTIONS. */
export function anyMethod(handler: RouteHandler): Record<Method, RouteHandler> {
  const options: RouteHandler = (req, args) => handler(req, args);
  registerOtherMethods(options, () => handler);
  return Object.fromEntries(METHODS.map((m) => [m, m === "OPTIONS" ? options : handler])) as Record<
    Method,
    RouteHandler
  >;
}
