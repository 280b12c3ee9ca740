import type { z } from "zod";
import { API_ROUTES } from "@/lib/openapi/operations";
import type { AnyRouteContract } from "@/lib/routes/contract";

/** One path of the API with what its operations accept, derived from the operation list. */
export interface FuzzTarget {
  /** The OpenAPI path, e.g. /domains/{domain}: the label requests are counted under. */
  path: string;
  methods: AnyRouteContract["method"][];
  pathParams: string[];
  query?: z.ZodObject;
  /** A valid body to mutate (the operation's example), and its content type. */
  example?: unknown;
  contentType?: string;
  /** The answer is the document itself, not the envelope. */
  raw: boolean;
  mcp: boolean;
}

/**
 * Every path of /api/v1 from the route contracts (`API_ROUTES`), so an endpoint declared there is fuzzed without a change
 * here. Operations on one path (GET and DELETE /domains/{domain}) share a target.
 */
export function fuzzTargets(operations: AnyRouteContract[] = API_ROUTES): FuzzTarget[] {
  const byPath = new Map<string, FuzzTarget>();
  for (const op of operations) {
    const target: FuzzTarget = byPath.get(op.path) ?? {
      path: op.path,
      methods: [],
      pathParams: (op.pathParams ?? []).map((p: { name: string }) => p.name),
      raw: false,
      mcp: op.path === "/mcp",
    };
    target.methods.push(op.method);
    if (op.query) target.query = op.query;
    if (op.body) {
      target.example = op.body.example;
      target.contentType = op.body.contentType ?? "application/json";
    }
    if (op.success.raw && op.path !== "/mcp") target.raw = true;
    byPath.set(op.path, target);
  }
  return [...byPath.values()];
}

/** A concrete path: each {param} replaced by its (already encoded) value. */
export function fillPath(template: string, values: Record<string, string>): string {
  return `/api/v1${template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "x")}`;
}
