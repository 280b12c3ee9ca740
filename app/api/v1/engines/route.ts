import { describeEngines } from "@/lib/ai-visibility/report";
import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { listEnginesRoute } from "@/lib/routes/visibility";

// GET /api/v1/engines: the AI engines, whether each is configured on this server, and its model (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(listEnginesRoute, async () => ok(describeEngines())),
});
