import { describeEngines } from "@/lib/ai-visibility/report";
import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";

// GET /api/v1/engines: the AI engines, whether each is configured on this server, and its model (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async () => ok(describeEngines())),
});
