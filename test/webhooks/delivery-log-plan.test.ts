import { afterAll, beforeAll, expect, test } from "vitest";
import type { Db, DbHandle } from "@/lib/db/client";
import { webhookEndpoints } from "@/lib/db/schema";
import { listDeliveries, sendTestEvent } from "@/lib/webhooks/endpoints";
import { createTestAccount } from "../accounts";
import { createTestDb } from "../db";
import { capturingDb, planOf } from "../support/query-plans";

// An endpoint's delivery log lists the newest deliveries first, a page at a time: it must walk an index in that
// order, not sort every delivery the endpoint has had (a busy endpoint keeps 30 days of them).
let handle: DbHandle;
let captured: { query: string; params: unknown[] }[] = [];
let logged: Db;

beforeAll(async () => {
  handle = await createTestDb();
  ({ db: logged, captured } = await capturingDb(handle));
});
afterAll(async () => handle?.close());

test("the delivery log walks the endpoint's index backward, without sorting, newest first", async () => {
  const acct = await createTestAccount(handle.db);
  const [endpoint] = await handle.db
    .insert(webhookEndpoints)
    .values({
      accountId: acct.accountId,
      url: "https://hooks.example/in",
      events: ["webhook.test"],
      secret: "s",
    })
    .returning();
  for (let i = 0; i < 6; i++) await sendTestEvent(handle.db, acct.accountId, endpoint!.id);

  captured.length = 0;
  const page = await listDeliveries(logged, acct.accountId, endpoint!.id, 4);
  expect(page).toHaveLength(4);
  const times = page.map((d) => Date.parse(d.createdAt));
  expect([...times].sort((a, b) => b - a)).toEqual(times);

  const statement = captured.filter((c) => /from "webhook_deliveries"/.test(c.query));
  expect(statement).toHaveLength(1);
  const plan = await planOf(handle, statement[0]!.query, statement[0]!.params);
  expect(plan).toMatch(/Index Scan Backward using webhook_deliveries_endpoint_idx/);
  expect(plan).not.toMatch(/Sort/);
});
