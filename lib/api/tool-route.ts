import type { z } from "zod";
import type { Job } from "@/lib/db/schema";
import { createJob, requestHash } from "@/lib/jobs/create";
import { type auditsJobCreated, type jobCreated, pollUrl } from "@/lib/jobs/view";
import { toolContract } from "@/lib/routes/tools";
import { getTool } from "@/lib/tools/catalog";
import type { AnyTool } from "@/lib/tools/types";
import { ApiResult } from "./envelope";
import {
  methods,
  otherMethodHandler,
  type RouteHandler,
  registerOtherMethods,
  withPublicApi,
} from "./handler";
import { implement } from "./implement";
import { unknownPath } from "./unknown-path";

/** The 202 answer of a tool POST, in the shape the tool's definition names. */
function jobCreatedData(
  tool: AnyTool,
  job: Pick<Job, "id" | "tool" | "status" | "creditsCharged">,
): z.infer<typeof jobCreated> | z.infer<typeof auditsJobCreated> {
  const location = pollUrl(job.id);
  // A new job is pending; a replay of its Idempotency-Key answers where the job is now (as MCP does).
  return tool.creationShape === "with-charge"
    ? {
        jobId: job.id,
        tool: "audits",
        status: job.status,
        creditsCharged: job.creditsCharged,
        pollUrl: location,
      }
    : { jobId: job.id, status: job.status, pollUrl: location };
}

/**
 * The exports of a tool endpoint: POST implements the tool's contract (lib/routes/tools.ts): the body is
 * parsed with the tool's input schema, its cost charged and the pending job created (202 + Location); other
 * methods are 405.
 */
export function toolRoute(tool: AnyTool) {
  return methods({
    POST: implement(toolContract(tool), async ({ url, db, auth, body, rawBody, idempotencyKey }) => {
      const { job, replayed } = await createJob(db, {
        accountId: auth.accountId,
        tool,
        input: body,
        idempotency: idempotencyKey
          ? { key: idempotencyKey, requestHash: requestHash("POST", url.pathname, rawBody) }
          : undefined,
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
  const routeFor = (tool: AnyTool) => {
    let route = routes.get(tool.name);
    if (!route) {
      route = toolRoute(tool);
      routes.set(tool.name, route);
    }
    return route;
  };
  const dispatch =
    (method: RouteMethod): RouteHandler =>
    async (req, args) => {
      const name = (await args.params).tool;
      const tool = typeof name === "string" ? getTool(name) : undefined;
      if (!tool) return notFound(req, args);
      const handler = routeFor(tool)[method];
      return handler ? handler(req, args) : notFound(req, args);
    };
  const exports = Object.fromEntries(ROUTE_METHODS.map((m) => [m, dispatch(m)])) as Record<
    RouteMethod,
    RouteHandler
  >;
  // Another method (PROPFIND, TRACE…): the tool's 405, or the 404 of a name that is no tool.
  registerOtherMethods(exports.OPTIONS, (method) => async (req, args) => {
    const name = (await args.params).tool;
    const tool = typeof name === "string" ? getTool(name) : undefined;
    const other = tool ? otherMethodHandler(routeFor(tool), method) : undefined;
    return (other ?? notFound)(req, args);
  });
  return exports;
}
