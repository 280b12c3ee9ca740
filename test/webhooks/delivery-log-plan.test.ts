import { expect } from "vitest";
import { webhookEndpoints } from "@/lib/db/schema";
import { listDeliveries } from "@/lib/webhooks/endpoints";
import { emitWebhookEvent } from "@/lib/webhooks/outbox";
import { createTestAccount } from "../accounts";
import { type PlanDb, planTest } from "../support/query-plans";

// An endpoint's delivery log lists the newest deliveries first, a page at a time: it must walk an index in that
// order, not sort every delivery the endpoint has had (a busy endpoint keeps 30 days of them).
const test = planTest;
let plans: PlanDb;
test.beforeAll(({ plans: _plans }) => {
  plans = _plans;
});

test("the delivery log walks the endpoint's index backward, without sorting, newest first", async () => {
  const acct = await createTestAccount(plans.db);
  const [endpoint] = await plans.db
    .insert(webhookEndpoints)
    .values({
      accountId: acct.accountId,
      url: "https://hooks.example/in",
      events: ["webhook.test"],
      secret: "s",
    })
    .returning();
  // Six events (test sends are limited to five a minute per URL, so the outbox writes them directly).
  for (let i = 0; i < 6; i++) {
    await emitWebhookEvent(plans.db, acct.accountId, "webhook.test", { i }, { endpointId: endpoint!.id });
  }

  const page = await listDeliveries(plans.db, acct.accountId, endpoint!.id, 4);
  expect(page).toHaveLength(4);
  const times = page.map((d) => Date.parse(d.createdAt));
  expect([...times].sort((a, b) => b - a)).toEqual(times);

  const plan = await plans.planOf(
    (db) => listDeliveries(db, acct.accountId, endpoint!.id, 4),
    /from "webhook_deliveries"/,
  );
  expect(plan).toMatch(/Index Scan Backward using webhook_deliveries_endpoint_idx/);
  expect(plan).not.toMatch(/Sort/);
});
