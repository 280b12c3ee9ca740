// Webhook test sends limited per target URL, and signing secrets sealed at rest: through the real API and the
// real delivery pass, against a receiver that verifies signatures as a customer's server would.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, vi } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { deliverDueWebhooks, sendTestEvent } from "@/lib/webhooks";
import { TEST_SENDS_PER_URL_PER_MINUTE } from "@/lib/webhooks/endpoints";
import { type Receiver, startReceiver } from "@/test/fakes/webhook-receiver";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { callApi } from "../tracking/helpers";

const test = apiTest;
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let other: TestAccount;
let receiver: Receiver;

test.beforeAll(async ({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
  other = await createTestAccount(handle.db);
});
beforeEach(async () => {
  vi.stubEnv("ALLOW_PRIVATE_TARGETS", "loopback");
  receiver = await startReceiver();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await receiver.close();
  await handle.db.delete(webhookDeliveries);
  await handle.db.delete(webhookEndpoints);
});

async function createEndpoint(account = acct, url = receiver.url) {
  const res = await callApi<{ id: string; secret: string }>(api, "/api/v1/webhooks", {
    method: "POST",
    headers: account.headers,
    json: { url, events: ["job.completed"] },
  });
  expect(res.status).toBe(201);
  return res.data;
}

const sendTest = (id: string, account = acct) =>
  callApi<Record<string, unknown>>(api, `/api/v1/webhooks/${id}/test`, {
    method: "POST",
    headers: account.headers,
  });

describe("test sends", () => {
  test("are limited per URL: nine endpoints on one URL do not multiply what it receives", async () => {
    const endpoints = [];
    for (let i = 0; i < 9; i++) endpoints.push(await createEndpoint());
    const statuses: number[] = [];
    for (const e of endpoints) statuses.push((await sendTest(e.id)).status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(TEST_SENDS_PER_URL_PER_MINUTE);
    expect(statuses.slice(TEST_SENDS_PER_URL_PER_MINUTE).every((s) => s === 429)).toBe(true);
    const refused = await sendTest(endpoints[0]!.id);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: { code: "RATE_LIMITED" } });
    const retry = Number(refused.body.error?.details.retryAfterSeconds);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    // Another account's endpoint on the same URL shares the URL's budget.
    const theirs = await createEndpoint(other);
    expect((await sendTest(theirs.id, other)).status).toBe(429);
    // A send to every endpoint of the account (the older interface's form) is counted the same way.
    await expect(sendTestEvent(handle.db, acct.accountId)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    await deliverDueWebhooks(handle.db);
    expect(receiver.received).toHaveLength(TEST_SENDS_PER_URL_PER_MINUTE);
  });

  test("another URL has its own budget", async () => {
    const a = await createEndpoint();
    const b = await createEndpoint(acct, `${receiver.url}?other=1`);
    for (let i = 0; i < TEST_SENDS_PER_URL_PER_MINUTE; i++) expect((await sendTest(a.id)).status).toBe(202);
    expect((await sendTest(a.id)).status).toBe(429);
    expect((await sendTest(b.id)).status).toBe(202);
  });
});

describe("signing secrets at rest", () => {
  const key = randomBytes(32).toString("base64");
  const storedSecret = async (id: string) =>
    (await handle.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;

  test("with the data key, a new secret is stored sealed and deliveries verify with the secret shown once", async () => {
    vi.stubEnv("DATA_ENCRYPTION_KEY", key);
    const created = await createEndpoint();
    const row = await storedSecret(created.id);
    expect(row.secret).not.toContain(created.secret);
    expect(row.secret).toMatch(/^v1\./);
    receiver.secrets = [created.secret];
    expect((await sendTest(created.id)).status).toBe(202);
    await deliverDueWebhooks(handle.db);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verifiedWith).toEqual([0]);
  });

  test("a rotation seals the new secret; both the old and the new verify during the overlap", async () => {
    vi.stubEnv("DATA_ENCRYPTION_KEY", key);
    const created = await createEndpoint();
    const rotated = await callApi<{ secret: string }>(api, `/api/v1/webhooks/${created.id}/rotate-secret`, {
      method: "POST",
      headers: acct.headers,
    });
    expect(rotated.status).toBe(200);
    const row = await storedSecret(created.id);
    expect(row.secret).toMatch(/^v1\./);
    expect(row.previousSecret).toMatch(/^v1\./);
    receiver.secrets = [created.secret, rotated.data.secret];
    await sendTest(created.id);
    await deliverDueWebhooks(handle.db);
    expect(receiver.received[0]!.verifiedWith).toEqual([0, 1]);
  });

  test("a plaintext row from before sealing keeps working, and is sealed the first time it is used", async () => {
    // Created on a server without the key (development): the secret is stored as it is.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const created = await createEndpoint();
    warn.mockRestore();
    expect((await storedSecret(created.id)).secret).toBe(created.secret);

    vi.stubEnv("DATA_ENCRYPTION_KEY", key);
    receiver.secrets = [created.secret];
    await sendTest(created.id);
    await deliverDueWebhooks(handle.db);
    expect(receiver.received[0]!.verifiedWith).toEqual([0]);
    const sealed = (await storedSecret(created.id)).secret;
    expect(sealed).toMatch(/^v1\./);
    // And the sealed row signs the same.
    await sendTest(created.id);
    await deliverDueWebhooks(handle.db);
    expect(receiver.received[1]!.verifiedWith).toEqual([0]);
  });

  test("without the key: plaintext with a warning in development, refused in production", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      vi.stubEnv("NODE_ENV", "development");
      const dev = await createEndpoint();
      expect((await storedSecret(dev.id)).secret).toBe(dev.secret);

      vi.stubEnv("NODE_ENV", "production");
      const res = await callApi<Record<string, unknown>>(api, "/api/v1/webhooks", {
        method: "POST",
        headers: acct.headers,
        json: { url: receiver.url, events: ["job.completed"] },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: "VALIDATION_ERROR" } });
      // The customer is not told about environment variables; the operator's log is.
      expect(JSON.stringify(res.body)).not.toContain("DATA_ENCRYPTION_KEY");
      expect(error.mock.calls.flat().join(" ")).toContain("DATA_ENCRYPTION_KEY");
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  test("a sealed secret that cannot be opened fails the delivery with a clear error, nothing sent", async () => {
    vi.stubEnv("DATA_ENCRYPTION_KEY", key);
    const created = await createEndpoint();
    await sendTest(created.id);
    vi.stubEnv("DATA_ENCRYPTION_KEY", randomBytes(32).toString("base64"));
    await deliverDueWebhooks(handle.db);
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await handle.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, created.id));
    expect(delivery!.lastError).toMatch(/signing secret cannot be read/);
  });
});
