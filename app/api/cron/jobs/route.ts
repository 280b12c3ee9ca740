import { timingSafeEqual } from "node:crypto";
import { ok } from "@/lib/api/envelope";
import { methods, withEnvelope } from "@/lib/api/handler";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { runJobsOnce } from "@/lib/jobs/cron";

function authorized(req: Request): boolean {
  const secret = process.env.CRON_SECRET;
  const given = req.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
  if (!secret || !given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

// GET /api/cron/jobs: one runner pass for serverless deployments (Authorization: Bearer $CRON_SECRET)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(
  {
    GET: withEnvelope(async ({ req }) => {
      if (!authorized(req)) throw new AppError("UNAUTHORIZED", "Send Authorization: Bearer <CRON_SECRET>.");
      return ok(await runJobsOnce(await getDb()));
    }),
  },
  { public: true },
);
