import { expect } from "vitest";
import { apiTest } from "@/test/support/fixtures";
import type { TestAccount } from "../accounts";
import type { TestApi } from "../api-server";

// Found by the fuzzer: requests whose params do not fit the method's schema were answered
// -32603 Internal error with a raw zod dump; they are the client's mistake: -32602 naming the field.
const test = apiTest;
let api: TestApi;
let acct: TestAccount;

test.beforeAll(async ({ api: _api, acct: _acct }) => {
  api = _api;
  acct = _acct;
});

async function rpc(message: unknown) {
  const res = await fetch(`${api.url}/api/v1/mcp`, {
    method: "POST",
    headers: {
      ...acct.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(message),
  });
  return { status: res.status, body: (await res.json()) as { error?: { code: number; message: string } } };
}

const cases = [
  {
    name: "initialize without its params",
    message: { method: "initialize", params: { _meta: {} } },
    field: "protocolVersion",
  },
  {
    name: "tools/call with a numeric name",
    message: { method: "tools/call", params: { name: 5 } },
    field: "name",
  },
  {
    name: "tools/call with arguments that are not an object",
    message: { method: "tools/call", params: { name: "get_credits", arguments: [1] } },
    field: "arguments",
  },
];
for (const c of cases) {
  test(c.name, async () => {
    const { status, body } = await rpc({ jsonrpc: "2.0", id: 7, ...c.message });
    expect(status).toBeLessThan(500);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain(c.field);
  });
}

test("a well-formed call still works", async () => {
  const { body } = await rpc({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "get_credits", arguments: {} },
  });
  expect(body.error).toBeUndefined();
});
