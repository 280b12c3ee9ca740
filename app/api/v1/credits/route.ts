import { ok } from "@/lib/api/envelope";
import { methods } from "@/lib/api/handler";
import { implement } from "@/lib/api/implement";
import { getCreditAccount } from "@/lib/credits/credits";
import { getCreditsRoute } from "@/lib/routes/credits";

// GET /api/v1/credits: balance, total used and the most recent transactions (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: implement(getCreditsRoute, async ({ db, auth }) => ok(await getCreditAccount(db, auth.accountId))),
});
