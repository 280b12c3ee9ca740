import { ok } from "@/lib/api/envelope";
import { methods, withApiKey } from "@/lib/api/handler";
import { getCreditAccount } from "@/lib/credits/credits";

// GET /api/v1/credits: balance, total used and the 20 most recent transactions (free)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: withApiKey(async ({ db, auth }) => ok(await getCreditAccount(db, auth.accountId))),
});
