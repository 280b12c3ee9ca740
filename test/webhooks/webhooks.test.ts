import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, vi } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { accountNotices, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/lib/db/schema";
import { createJob } from "@/lib/jobs/create";
import { JobRunner, type RunnerOptions, recoverInterruptedJobs } from "@/lib/jobs/runner";
import { deliverDueWebhooks } from "@/lib/webhooks";
import { domainsListening } from "@/lib/webhooks/outbox";
import { type Receiver, startReceiver } from "@/test/fakes/webhook-receiver";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { sleepTool, testTools } from "../jobs-helpers";
import { callApi, UA } from "../tracking/helpers";

const test = apiTest.withAccount({ credits: 10_000, domains: ["hooks.example"] });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let other: TestAccount;
let receiver: Receiver;
const opts: RunnerOptions = { concurrency: 4, leaseSeconds: 5, queueTimeoutSeconds: 600, pollMs: 50 };

test.beforeAll(async ({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
  other = await createTestAccount(handle.db);
});
beforeEach(async () => {
  // The one documented test allowance: loopback targets (the receiver on 127.0.0.1).
  vi.stubEnv("ALLOW_PRIVATE_TARGETS", "loopback");
  receiver = await startReceiver();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await receiver.close();
  // Each test starts from no endpoints (and so no pending deliveries).
  await handle.db.delete(webhookEndpoints);
});

async function createEndpoint(events: string[], account = acct) {
  const { status, data } = await callApi<{ id: string; secret: string }>(api, "/api/v1/webhooks", {
    method: "POST",
    headers: account.headers,
    json: { url: receiver.url, events },
  });
  expect(status).toBe(201);
  receiver.secrets = [data.secret];
  return data;
}

const deliver = () => deliverDueWebhooks(handle.db);

async function deliveryRows(endpointId: string) {
  return handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

describe("endpoints", () => {
  test("created with a whsec_ secret shown once; listed without it; another account sees nothing", async () => {
    const created = await createEndpoint(["job.completed", "webhook.test"]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const list = await callApi<{ webhooks: Record<string, unknown>[] }>(api, "/api/v1/webhooks", {
      headers: acct.headers,
    });
    expect(list.data.webhooks).toHaveLength(1);
    expect(list.data.webhooks[0]).toMatchObject({ id: created.id, url: receiver.url, enabled: true });
    expect(list.data.webhooks[0]).not.toHaveProperty("secret");
    const theirs = await callApi(api, `/api/v1/webhooks/${created.id}/deliveries`, {
      headers: other.headers,
    });
    expect(theirs.status).toBe(404);
    const del = await callApi(api, `/api/v1/webhooks/${created.id}`, {
      method: "DELETE",
      headers: other.headers,
    });
    expect(del.status).toBe(404);
  });

  test.each([
    ["loopback", "http://127.0.0.1:9/hook"],
    ["localhost", "http://localhost:9/hook"],
    ["private network", "http://10.0.0.7/hook"],
    ["link-local metadata", "http://169.254.169.254/latest/meta-data"],
    ["IPv6 loopback", "http://[::1]/hook"],
  ])("a private target (%s) is refused at creation", async (_name, url) => {
    vi.stubEnv("ALLOW_PRIVATE_TARGETS", "");
    const { status, body } = await callApi(api, "/api/v1/webhooks", {
      method: "POST",
      headers: acct.headers,
      json: { url, events: ["job.completed"] },
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "url" } });
    expect(await handle.db.select().from(webhookEndpoints)).toHaveLength(0);
  });

  test.each([
    [{ url: "ftp://example.com/x", events: ["job.completed"] }],
    [{ url: "https://example.com/x", events: [] }],
    [{ url: "https://example.com/x", events: ["job.exploded"] }],
    [{ url: "https://example.com/x", events: ["job.failed", "job.failed"] }],
    [{ url: "https://example.com/x" }],
  ])("bad input %j is 400", async (json) => {
    const { status, body } = await callApi(api, "/api/v1/webhooks", {
      method: "POST",
      headers: acct.headers,
      json,
    });
    expect(status).toBe(400);
    expect(body.error?.code).toBe("VALIDATION_ERROR");
  });
});

describe("events and delivery", () => {
  test("a job completing and a job failing produce exactly one signed event each", async () => {
    const endpoint = await createEndpoint(["job.completed", "job.failed"]);
    const ok = await createJob(handle.db, {
      accountId: acct.accountId,
      tool: sleepTool as never,
      input: { ms: 0 },
    });
    const bad = await createJob(handle.db, {
      accountId: acct.accountId,
      tool: sleepTool as never,
      input: { ms: 0, fail: "tool-error" },
    });
    const runner = new JobRunner(handle.db, opts, testTools);
    await runner.pass();
    await runner.drain();
    await runner.pass(); // sends what the finished jobs wrote to the outbox
    await recoverInterruptedJobs(handle.db); // nothing more to move: no further event
    await runner.pass();
    await runner.stop();

    const byType = (t: string) => receiver.received.filter((r) => r.payload.type === t);
    expect(byType("job.completed")).toHaveLength(1);
    expect(byType("job.failed")).toHaveLength(1);
    expect(byType("job.completed")[0]!.payload.data).toMatchObject({
      jobId: ok.job.id,
      status: "completed",
      pollUrl: `/api/v1/jobs/${ok.job.id}`,
    });
    expect(byType("job.failed")[0]!.payload.data).toMatchObject({
      jobId: bad.job.id,
      status: "failed",
      creditsRefunded: true,
      error: { code: "HTTP_ERROR" },
    });
    for (const r of receiver.received) {
      expect(r.verifiedWith).toEqual([0]);
      expect(r.id).toMatch(/^msg_/);
      expect(r.signature).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(Object.keys(r.payload).sort()).toEqual(["data", "timestamp", "type"]);
    }
    const events = await handle.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.accountId, acct.accountId));
    expect(events.filter((e) => e.type.startsWith("job.")).length).toBe(2);
    expect((await deliveryRows(endpoint.id)).every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(
      true,
    );
  });

  test("an endpoint gets only the types it subscribed to; no endpoint, no event stored", async () => {
    await createEndpoint(["webhook.test"]);
    const before = await handle.db.select().from(webhookEvents);
    await createJob(handle.db, { accountId: acct.accountId, tool: sleepTool as never, input: { ms: 0 } });
    const runner = new JobRunner(handle.db, opts, testTools);
    await runner.pass();
    await runner.drain();
    await runner.pass();
    await runner.stop();
    expect(receiver.received).toHaveLength(0);
    expect(await handle.db.select().from(webhookEvents)).toHaveLength(before.length);
  });

  test("a receiver answering 500 then 200 gets the retry 5 s later, same webhook-id; the log shows both", async () => {
    const endpoint = await createEndpoint(["webhook.test"]);
    receiver.queue = [500];
    const sent = await callApi<{ eventId: string }>(api, `/api/v1/webhooks/${endpoint.id}/test`, {
      method: "POST",
      headers: acct.headers,
    });
    expect(sent.status).toBe(202);
    expect(await deliver()).toEqual({ attempted: 1, succeeded: 0, failed: 1 });
    const [first] = await deliveryRows(endpoint.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    const wait = first!.nextAttemptAt.getTime() - first!.lastAttemptAt!.getTime();
    expect(wait).toBeGreaterThanOrEqual(4_000);
    expect(wait).toBeLessThanOrEqual(6_000);
    // Not due yet: nothing is sent.
    expect((await deliver()).attempted).toBe(0);
    const log = await callApi<{ deliveries: Record<string, unknown>[] }>(
      api,
      `/api/v1/webhooks/${endpoint.id}/deliveries`,
      { headers: acct.headers },
    );
    expect(log.data.deliveries[0]).toMatchObject({
      eventType: "webhook.test",
      status: "pending",
      attempts: 1,
      responseStatus: 500,
    });
    expect(log.data.deliveries[0]!.nextAttemptAt).toBe(first!.nextAttemptAt.toISOString());

    await handle.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.id, first!.id));
    expect(await deliver()).toEqual({ attempted: 1, succeeded: 1, failed: 0 });
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 200]);
    expect(receiver.received[0]!.id).toBe(sent.data.eventId);
    expect(receiver.received[1]!.id).toBe(sent.data.eventId);
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);
    const [done] = await deliveryRows(endpoint.id);
    expect(done).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200 });
    expect(done!.lastLatencyMs).toBeGreaterThanOrEqual(0);
  });

  test("after the last scheduled attempt the delivery is failed; a redirect is a failure and is not followed", async () => {
    const endpoint = await createEndpoint(["webhook.test"]);
    receiver.queue = [302];
    await callApi(api, `/api/v1/webhooks/${endpoint.id}/test`, { method: "POST", headers: acct.headers });
    // The eighth attempt is the last (immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).
    await handle.db
      .update(webhookDeliveries)
      .set({ attempts: 7 })
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    await deliver();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.answered).toBe(302);
    const [row] = await deliveryRows(endpoint.id);
    expect(row).toMatchObject({ status: "failed", attempts: 8, lastStatusCode: 302 });
    expect(row!.lastError).toMatch(/Redirect/);
  });

  test("redeliver sends the same message again as a new delivery", async () => {
    const endpoint = await createEndpoint(["webhook.test"]);
    await callApi(api, `/api/v1/webhooks/${endpoint.id}/test`, { method: "POST", headers: acct.headers });
    await deliver();
    const [original] = await deliveryRows(endpoint.id);
    const again = await callApi<{ id: string; status: string }>(
      api,
      `/api/v1/webhooks/${endpoint.id}/deliveries/${original!.id}/redeliver`,
      { method: "POST", headers: acct.headers },
    );
    expect(again.status).toBe(202);
    expect(again.data).toMatchObject({ status: "pending", attempts: 0 });
    expect(again.data.id).not.toBe(original!.id);
    await deliver();
    expect(receiver.received.map((r) => r.id)).toEqual([original!.eventId, original!.eventId]);
    const missing = await callApi(
      api,
      `/api/v1/webhooks/${endpoint.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
      { method: "POST", headers: acct.headers },
    );
    expect(missing.status).toBe(404);
  });

  test("rotation: old and new secret both sign for 24 h, then only the new one", async () => {
    const endpoint = await createEndpoint(["webhook.test"]);
    const oldSecret = endpoint.secret;
    const rotated = await callApi<{ secret: string; secretRotatedUntil: string }>(
      api,
      `/api/v1/webhooks/${endpoint.id}/rotate-secret`,
      { method: "POST", headers: acct.headers },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.data.secret).not.toBe(oldSecret);
    const until = Date.parse(rotated.data.secretRotatedUntil) - Date.now();
    expect(until).toBeGreaterThan(23.9 * 3600_000);
    expect(until).toBeLessThanOrEqual(24 * 3600_000);
    receiver.secrets = [oldSecret, rotated.data.secret];
    await callApi(api, `/api/v1/webhooks/${endpoint.id}/test`, { method: "POST", headers: acct.headers });
    await deliver();
    expect(receiver.received[0]!.signature.split(" ")).toHaveLength(2);
    expect(receiver.received[0]!.verifiedWith).toEqual([0, 1]);

    await handle.db
      .update(webhookEndpoints)
      .set({ previousSecretExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await callApi(api, `/api/v1/webhooks/${endpoint.id}/test`, { method: "POST", headers: acct.headers });
    await deliver();
    expect(receiver.received[1]!.signature.split(" ")).toHaveLength(1);
    expect(receiver.received[1]!.verifiedWith).toEqual([1]);
  });

  test("an endpoint failing for 5 days is disabled and the owner gets a notice", async () => {
    const endpoint = await createEndpoint(["webhook.test"]);
    await handle.db
      .update(webhookEndpoints)
      .set({ failingSince: sql`now() - interval '5 days 1 minute'` })
      .where(eq(webhookEndpoints.id, endpoint.id));
    receiver.queue = [503];
    await callApi(api, `/api/v1/webhooks/${endpoint.id}/test`, { method: "POST", headers: acct.headers });
    await callApi(api, `/api/v1/webhooks/${endpoint.id}/test`, { method: "POST", headers: acct.headers });
    await deliverDueWebhooks(handle.db, { limit: 1 });
    const got = await callApi<{ enabled: boolean; disabledAt: string }>(
      api,
      `/api/v1/webhooks/${endpoint.id}`,
      {
        headers: acct.headers,
      },
    );
    expect(got.data.enabled).toBe(false);
    expect(got.data.disabledAt).toBeTruthy();
    expect((await deliveryRows(endpoint.id)).map((d) => d.status).sort()).toEqual(["failed", "failed"]);
    const notices = await handle.db
      .select()
      .from(accountNotices)
      .where(and(eq(accountNotices.accountId, acct.accountId), eq(accountNotices.kind, "webhook_disabled")));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain(receiver.url);
    // Disabled: nothing more is sent, and a test event is refused until it is enabled again.
    expect((await deliver()).attempted).toBe(0);
    const refused = await callApi(api, `/api/v1/webhooks/${endpoint.id}/test`, {
      method: "POST",
      headers: acct.headers,
    });
    expect(refused.status).toBe(400);
    const enabled = await callApi(api, `/api/v1/webhooks/${endpoint.id}/enable`, {
      method: "POST",
      headers: acct.headers,
    });
    expect(enabled.data).toMatchObject({ enabled: true, disabledAt: null });
  });

  test("credits.low fires once when a charge crosses the account's threshold", async () => {
    const low = await createTestAccount(handle.db, { credits: 25 });
    const endpoint = await createEndpoint(["credits.low"], low);
    const charge = () =>
      createJob(handle.db, { accountId: low.accountId, tool: sleepTool as never, input: { ms: 0 } });
    await charge(); // 25 → 18: under the default threshold of 20
    await charge(); // 18 → 11: already under it, no second event
    await deliver();
    expect(receiver.received.map((r) => r.payload.type)).toEqual(["credits.low"]);
    expect(receiver.received[0]!.payload.data).toMatchObject({ balance: 18, threshold: 20 });
    expect(await deliveryRows(endpoint.id)).toHaveLength(1);
  });

  test("concurrent charges (one statement for those that queue): credits.low once, at the crossing", async () => {
    const low = await createTestAccount(handle.db, { credits: 40 });
    const endpoint = await createEndpoint(["credits.low"], low);
    await Promise.all(
      Array.from({ length: 5 }, () =>
        createJob(handle.db, { accountId: low.accountId, tool: sleepTool as never, input: { ms: 0 } }),
      ),
    );
    // 40 → 33 → 26 → 19 (under 20: the event) → 12 → 5, whatever order the charges took.
    const spends = rowsOf<{ balance_after: number }>(
      await handle.db.execute(
        sql`select balance_after from credit_ledger where account_id = ${low.accountId} and type = 'spend' order by balance_after desc`,
      ),
    );
    expect(spends.map((r) => Number(r.balance_after))).toEqual([33, 26, 19, 12, 5]);
    await deliver();
    expect(receiver.received.map((r) => r.payload.type)).toEqual(["credits.low"]);
    expect(receiver.received[0]!.payload.data).toMatchObject({ balance: 19, threshold: 20 });
    expect(await deliveryRows(endpoint.id)).toHaveLength(1);
  });

  test("citation.detected: the first citation of a path by an engine each day", async () => {
    await createEndpoint(["citation.detected"]);
    const event = (id: string, path: string, ua: string, minutesAgo: number) => ({
      id,
      domain: "hooks.example",
      path,
      userAgent: ua,
      timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    });
    const send = (events: unknown[]) =>
      callApi(api, "/api/v1/tracking/events", { method: "POST", headers: acct.headers, json: { events } });
    expect(
      (await send([event("c1", "/a", UA.chatgptUser, 2), event("c2", "/a?x=1", UA.chatgptUser, 1)])).status,
    ).toBe(200);
    await send([event("c3", "/a", UA.chatgptUser, 0), event("c4", "/b", UA.chatgptUser, 0)]);
    await send([event("c5", "/a", UA.perplexityUser, 0), event("g1", "/a", UA.gptbot, 0)]);
    await deliver();
    const got = receiver.received.map((r) => `${r.payload.data.engine} ${r.payload.data.path}`).sort();
    expect(got).toHaveLength(3);
    expect(got[0]).toMatch(/ \/a$/);
    expect(receiver.received.every((r) => r.payload.type === "citation.detected")).toBe(true);
    expect(receiver.received.every((r) => r.payload.data.domain === "hooks.example")).toBe(true);
    expect(
      new Set(receiver.received.map((r) => `${r.payload.data.engine}|${r.payload.data.path}`)).size,
    ).toBe(3);
  });

  test("citation.detected: an endpoint created after the engine's assistant was first met gets the next first citation", async () => {
    const send = (id: string, path: string) =>
      callApi(api, "/api/v1/tracking/events", {
        method: "POST",
        headers: acct.headers,
        json: {
          events: [
            {
              id,
              domain: "hooks.example",
              path,
              userAgent: UA.chatgptUser,
              timestamp: new Date().toISOString(),
            },
          ],
        },
      });
    // Nobody listens: the batch is stored (and its agent met) without an event.
    expect((await send("known-1", "/before-endpoint")).status).toBe(200);
    await createEndpoint(["citation.detected"]);
    expect((await send("known-2", "/after-endpoint")).status).toBe(200);
    await deliver();
    expect(receiver.received.map((r) => r.payload.data.path)).toEqual(["/after-endpoint"]);
  });

  test("domainsListening: an enabled endpoint of the domain's account, subscribed to the type", async () => {
    const [domain] = rowsOf<{ id: string }>(
      await handle.db.execute(sql`select id from domains where hostname = 'hooks.example'`),
    );
    const listening = () => domainsListening(handle.db, [domain!.id], "citation.detected");
    expect(await listening()).toBe(false);
    await createEndpoint(["job.completed"]);
    expect(await listening()).toBe(false);
    await createEndpoint(["citation.detected"], other);
    expect(await listening()).toBe(false);
    const mine = await createEndpoint(["citation.detected"]);
    expect(await listening()).toBe(true);
    expect(await domainsListening(handle.db, [], "citation.detected")).toBe(false);
    await handle.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, mine.id));
    expect(await listening()).toBe(false);
  });

  test("citation.detected: one event per page a batch cites first, at the earliest of its visits", async () => {
    await createEndpoint(["citation.detected"]);
    // 40 pages, each cited twice in one batch: the later visit first, and with a query string; the events must
    // carry each page's earlier visit, whatever the batch's order.
    // Within one clock hour of the last two (one UTC day).
    const base = Math.floor((Date.now() - 3_600_000) / 3_600_000) * 3_600_000 + 600_000;
    const events = Array.from({ length: 40 }, (_, p) => [
      {
        id: `late-${p}`,
        domain: "hooks.example",
        path: `/guide/${p}?utm_source=chatgpt.com`,
        userAgent: UA.chatgptUser,
        timestamp: new Date(base + p * 1000 + 500).toISOString(),
      },
      {
        id: `early-${p}`,
        domain: "hooks.example",
        path: `/guide/${p}`,
        userAgent: UA.chatgptUser,
        timestamp: new Date(base + p * 1000).toISOString(),
      },
    ]).flat();
    const res = await callApi(api, "/api/v1/tracking/events", {
      method: "POST",
      headers: acct.headers,
      json: { events },
    });
    expect(res.status).toBe(200);
    await deliverDueWebhooks(handle.db, { limit: 100 });
    const got = receiver.received
      .map((r) => ({
        path: r.payload.data.path as string,
        at: r.payload.data.occurredAt as string,
        engine: r.payload.data.engine as string,
      }))
      .sort((a, b) => a.at.localeCompare(b.at));
    expect(got).toEqual(
      Array.from({ length: 40 }, (_, p) => ({
        path: `/guide/${p}`,
        at: new Date(base + p * 1000).toISOString(),
        engine: got[0]!.engine,
      })),
    );
    // Sent again, the batch cites no page for the first time that day.
    await callApi(api, "/api/v1/tracking/events", {
      method: "POST",
      headers: acct.headers,
      json: { events: events.map((e) => ({ ...e, id: `again-${e.id}` })) },
    });
    await deliverDueWebhooks(handle.db, { limit: 100 });
    expect(receiver.received).toHaveLength(40);
  });
});
