import { ApiResult } from "@/lib/api/envelope";
import { ApiError } from "@/lib/api/errors";
import { methods, withApiKey } from "@/lib/api/handler";
import { parseValue, readJson } from "@/lib/api/parse";
import { getTool } from "@/lib/tools/registry";
import { createJob, readIdempotencyKey, requestHash } from "./create";
import { pollUrl } from "./view";

/**
 * The exports of a tool endpoint's route file: POST validates the body with the tool's schema,
 * charges its cost and creates the pending job (202 + Location); other methods are 405.
 */
export function toolRoute(name: string) {
  return methods({
    POST: withApiKey(async ({ req, url, db, auth }) => {
      const tool = getTool(name);
      if (!tool) throw new ApiError("NOT_FOUND", `No tool ${name}.`);
      const key = readIdempotencyKey(req);
      const raw = await readJson(req);
      const input = parseValue(tool.input, raw);
      const { job, replayed } = await createJob(db, {
        accountId: auth.accountId,
        tool,
        input,
        idempotency: key ? { key, requestHash: requestHash("POST", url.pathname, raw) } : undefined,
      });
      const location = pollUrl(job.id);
      // The spec's creation shapes: POST /audits names the tool and the charge; the others are shorter.
      const data =
        name === "audits"
          ? {
              jobId: job.id,
              tool: job.tool,
              status: "pending",
              creditsCharged: job.creditsCharged,
              pollUrl: location,
            }
          : { jobId: job.id, status: "pending", pollUrl: location };
      return new ApiResult(data, 202, {
        Location: location,
        ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
      });
    }),
  });
}
