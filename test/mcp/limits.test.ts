import { expect } from "vitest";
import { getCreditAccount } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { WAITS_PER_KEY } from "@/lib/mcp/wait-slots";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import type { TestApi } from "../api-server";

const test = apiTest;
let handle: DbHandle;
let api: TestApi;

test.beforeAll(async ({ handle: _handle, api: _api }) => {
  handle = _handle;
  api = _api;
});

type RpcAnswer = { id: number; result?: { isError?: boolean; structuredContent?: Record<string, unknown> } };

function post(headers: Record<string, string>, body: unknown) {
  return fetch(`${api.url}/api/v1/mcp`, {
    method: "POST",
    headers: {
      ...headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(body),
  });
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

test("each message of a JSON-RPC batch counts against the key's rate limit", async () => {
  const acct = await createTestAccount(handle.db, { rateLimitPerMinute: 5 });
  const three = await post(
    acct.headers,
    [1, 2, 3].map((id) => call(id, "get_credits")),
  );
  expect(three.status).toBe(200);
  expect(three.headers.get("ratelimit-remaining")).toBe("2");
  expect(((await three.json()) as RpcAnswer[]).map((a) => a.id).sort()).toEqual([1, 2, 3]);
  // Three more in one batch would be the 6th call of the minute: refused as a whole.
  const over = await post(
    acct.headers,
    [4, 5, 6].map((id) => call(id, "get_credits")),
  );
  expect(over.status).toBe(429);
  const body = (await over.json()) as { error: { code: string } };
  expect(body.error.code).toBe("RATE_LIMITED");
  expect(over.headers.get("retry-after")).toBeTruthy();
});

test("a batch larger than the key's limit is refused before any call runs", async () => {
  const acct = await createTestAccount(handle.db, { rateLimitPerMinute: 10, credits: 100 });
  const batch = Array.from({ length: 20 }, (_, i) =>
    call(i + 1, "faq_generator", { url: "https://example.com/" }),
  );
  const res = await post(acct.headers, batch);
  expect(res.status).toBe(429);
  await res.arrayBuffer();
  // Nothing was charged: the balance is still the starting grant.
  expect((await getCreditAccount(handle.db, acct.accountId)).balance).toBe(100);
});

test(`at most ${WAITS_PER_KEY} wait_for_job calls per key wait at once; more are RATE_LIMITED tool errors`, async () => {
  const acct = await createTestAccount(handle.db, { credits: 1000 });
  const created = (await (
    await post(acct.headers, call(1, "faq_generator", { url: "https://example.com/" }))
  ).json()) as RpcAnswer;
  const jobId = created.result?.structuredContent?.jobId as string;
  expect(jobId).toBeTruthy();
  // No runner here: the job stays pending, so every wait lasts its full timeout.
  const waits = await Promise.all(
    Array.from({ length: WAITS_PER_KEY + 2 }, (_, i) =>
      post(acct.headers, call(10 + i, "wait_for_job", { jobId, timeoutSeconds: 2 })).then(
        async (r) => (await r.json()) as RpcAnswer,
      ),
    ),
  );
  const refused = waits.filter((w) => w.result?.isError);
  const waited = waits.filter((w) => !w.result?.isError);
  expect(waited).toHaveLength(WAITS_PER_KEY);
  expect(waited.every((w) => w.result?.structuredContent?.status === "pending")).toBe(true);
  expect(refused).toHaveLength(2);
  expect(refused[0]!.result?.structuredContent).toMatchObject({ code: "RATE_LIMITED", retryable: true });
  // Slots are released: another key is unaffected, and this key can wait again once the others return.
  const again = (await (
    await post(acct.headers, call(30, "wait_for_job", { jobId, timeoutSeconds: 1 }))
  ).json()) as RpcAnswer;
  expect(again.result?.isError).toBeFalsy();
}, 30_000);
