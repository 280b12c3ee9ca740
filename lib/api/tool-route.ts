import { createJob, readIdempotencyKey, requestHash } from "@/lib/jobs/create";
import { pollUrl } from "@/lib/jobs/view";
import type { AnyTool } from "@/lib/tools/types";
import { ApiResult } from "./envelope";
import { methods, withApiKey } from "./handler";
import { parseValue, readJson } from "./parse";

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
