import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { AuthenticatedKey } from "@/lib/keys/keys";
import type { LegacyAuth } from "@/lib/keys/legacy-tokens";
import { type AnyRouteContract, deprecationHeaders, type Prop, parsePathParam } from "@/lib/routes/contract";
import type { ApiResult } from "./envelope";
import { type ApiKeyOptions, type RouteHandler, withApiKey, withPublicApi } from "./handler";
import { readIdempotencyKey } from "./idempotency-key";
import { authenticateBearer } from "./legacy";
import { parseQuery, parseValue, readJson } from "./parse";

type Validation<C> = [Prop<Prop<C, "body">, "validation">] extends [never]
  ? "schema"
  : Prop<Prop<C, "body">, "validation">;
type IsJson<C> = [Prop<Prop<C, "body">, "contentType">] extends [never]
  ? true
  : Prop<Prop<C, "body">, "contentType"> extends "application/json"
    ? true
    : false;
type BodyOf<C> =
  IsJson<C> extends false
    ? undefined
    : Validation<C> extends "service"
      ? unknown
      : Validation<C> extends "handler"
        ? undefined
        : Prop<Prop<C, "body">, "schema"> extends z.ZodType
          ? z.output<Prop<Prop<C, "body">, "schema">>
          : undefined;

/** What a contract's handler receives: the request parsed with the contract's own schemas. */
export interface ContractContext<C extends AnyRouteContract> {
  req: Request;
  url: URL;
  requestId: string;
  /** Path parameters, each checked with its declared schema. */
  params: Record<Prop<Prop<C, "pathParams">[number], "name"> & string, string>;
  /** The query, parsed with the declared schema (unknown and repeated parameters refused). */
  query: [Prop<C, "query">] extends [never]
    ? undefined
    : Prop<C, "query"> extends z.ZodType
      ? z.output<Prop<C, "query">>
      : undefined;
  /**
   * The JSON body: parsed with the declared schema, or as sent when the contract leaves validation to the
   * service; undefined for other content types (the handler reads `req`).
   */
  body: BodyOf<C>;
  /** The JSON body exactly as sent (what an idempotency key's request hash covers). */
  rawBody: unknown;
  /** The Idempotency-Key header, when the contract accepts one and the request carries it. */
  idempotencyKey: string | undefined;
}

export interface KeyedContext<C extends AnyRouteContract> extends ContractContext<C> {
  db: Db;
  /** The caller; for the older interface, with the legacy token used (when it was one). */
  auth: C extends { legacy: true } ? LegacyAuth : AuthenticatedKey;
}

/** The success answer's data as the contract declares it: the handler's answer must be a `z.infer` of it. */
type ContractData<C extends AnyRouteContract> = [Prop<Prop<C, "success">, "data">] extends [never]
  ? unknown
  : Prop<Prop<C, "success">, "data"> extends { schema: infer S extends z.ZodType }
    ? z.infer<S>
    : unknown;

type Answer<C extends AnyRouteContract> = Promise<ApiResult<ContractData<C>> | Response>;

/**
 * The route handler of a declared contract: the wrapper (`withApiKey`, with the bearer token of the older
 * interface for a `legacy` contract, or `withPublicApi` for a public contract), then the path parameters, the Idempotency-Key header, the query and the body parsed with the
 * contract's schemas, in that order, then `handler`. A route file exports the result as GET/POST/…, so the
 * schema that validates a request is the schema the documents show.
 */
export function implement<C extends AnyRouteContract & { public: true }>(
  contract: C,
  handler: (ctx: ContractContext<C>) => Answer<C>,
): RouteHandler;
export function implement<C extends AnyRouteContract>(
  contract: C,
  handler: (ctx: KeyedContext<C>) => Answer<C>,
  opts?: ApiKeyOptions,
): RouteHandler;
export function implement(
  contract: AnyRouteContract,
  // biome-ignore lint/suspicious/noExplicitAny: the overloads type the context
  handler: (ctx: any) => Promise<ApiResult | Response>,
  opts: ApiKeyOptions = {},
): RouteHandler {
  const parse = async (req: Request, url: URL, rawParams: Record<string, string | string[]>) => {
    const params: Record<string, string> = {};
    for (const p of contract.pathParams ?? []) params[p.name] = parsePathParam(p, rawParams[p.name]);
    const idempotencyKey = contract.idempotencyKey ? readIdempotencyKey(req) : undefined;
    const query = contract.query ? parseQuery(url, contract.query, contract.ignoredQueryPrefix) : undefined;
    let body: unknown;
    let rawBody: unknown;
    const declared = contract.body;
    const json = (declared?.contentType ?? "application/json") === "application/json";
    if (declared && json && declared.validation !== "handler") {
      rawBody = await readJson(req);
      body = declared.validation === "service" ? rawBody : parseValue(declared.schema, rawBody);
    }
    return { params, idempotencyKey, query, body, rawBody };
  };
  if (contract.public) {
    return withPublicApi(async ({ req, url, requestId }) =>
      handler({ req, url, requestId, ...(await parse(req, url, {})) }),
    );
  }
  // The older interface's operations read `Authorization: Bearer <token>` (a legacy token or key:secret).
  const keyOptions: ApiKeyOptions = contract.legacy ? { authenticate: authenticateBearer, ...opts } : opts;
  const keyed = withApiKey<Record<string, string | string[]>>(
    async ({ req, url, db, auth, params, requestId }) =>
      handler({ req, url, db, auth, requestId, ...(await parse(req, url, params)) }),
    keyOptions,
  );
  if (!contract.deprecated) return keyed;
  // Every answer of a deprecated operation, errors included, says so and when it ends.
  const headers = deprecationHeaders();
  return async (req, args) => {
    const response = await keyed(req, args);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
}
