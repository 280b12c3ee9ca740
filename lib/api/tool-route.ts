import { createJob, readIdempotencyKey, requestHash } from "@/lib/jobs/create";
import { pollUrl } from "@/lib/jobs/view";
import { getTool } from "@/lib/tools/catalog";
import type { AnyTool } from "@/lib/tools/types";
import { ApiResult } from "./envelope";
import { methods, type RouteHandler, withApiKey, withPublicApi } from "./handler";
import { parseValue, readJson } from "./parse";
import { unknownPath } from "./unknown-path";

/** The 202 answer of a tool POST, in the shape the tool's definition names. */
export function jobCreatedData(tool: AnyTool, job: { id: string; tool: string; creditsCharged: number }) {
  const location = pollUrl(job.id);
  return tool.creationShape === "with-charge"
    ? {
        jobId: job.id,
        tool: job.tool,
        status: "pending",
        creditsCharged: job.creditsCharged,
        pollUrl: location,
      }
    : { jobId: job.id, status: "pending", pollUrl: location };
}

/**
 * The exports of a tool endpoint's route file: POST validates the body with the tool's schema,
 * charges its cost and creates the pending job (202 + Location); other methods are 405.
 */
export function toolRoute(tool: AnyTool) {
  return methods({
    POST: withApiKey(async ({ req, url, db, auth }) => {
      const key = readIdempotencyKey(req);
      const raw = await readJson(req);
      const input = parseValue(tool.input, raw);
      const { job, replayed } = await createJob(db, {
        accountId: auth.accountId,
        tool,
        input,
        idempotency: key ? { key, requestHash: requestHash("POST", url.pathname, raw) } : undefined,
      });
      return new ApiResult(jobCreatedData(tool, job), 202, {
        Location: pollUrl(job.id),
        ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
      });
    }),
  });
}

const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];

/**
 * The exports of the one dynamic tool route, `app/api/v1/[tool]/route.ts`: a name in the catalogue gets that
 * tool's endpoint (as `toolRoute`), any other name the JSON 404 of an unknown path. Static routes (credits,
 * jobs, …) win over the dynamic segment, so a new tool needs no route file of its own.
 */
export function catalogToolRoutes(): Record<RouteMethod, RouteHandler> {
  const routes = new Map<string, ReturnType<typeof toolRoute>>();
  const notFound = withPublicApi(unknownPath);
  const dispatch =
    (method: RouteMethod): RouteHandler =>
    async (req, args) => {
      const name = (await args.params).tool;
      const tool = typeof name === "string" ? getTool(name) : undefined;
      if (!tool) return notFound(req, args);
      let route = routes.get(tool.name);
      if (!route) {
        route = toolRoute(tool);
        routes.set(tool.name, route);
      }
      const handler = route[method];
      return handler ? handler(req, args) : notFound(req, args);
    };
  return Object.fromEntries(ROUTE_METHODS.map((m) => [m, dispatch(m)])) as Record<RouteMethod, RouteHandler>;
}
