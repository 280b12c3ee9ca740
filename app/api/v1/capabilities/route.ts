import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { listCapabilities } from "@/lib/capabilities";
import { getCapabilitiesRoute } from "@/lib/routes/capabilities";
import { readServerEnv } from "@/lib/tools/server-env";

// GET /api/v1/capabilities: every tool and further capability, available or why not (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getCapabilitiesRoute, async ({ db, auth }) =>
    ok(await listCapabilities(db, auth.accountId, readServerEnv())),
  ),
});
