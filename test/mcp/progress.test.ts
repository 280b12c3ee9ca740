import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { mcpTest } from "@/test/support/mcp-client";
import type { TestAccount } from "../accounts";
import type { TestApi } from "../api-server";

let api: TestApi;
let acct: TestAccount;
let client: Client;

const test = mcpTest;
test.beforeAll(({ api: _api, acct: _acct, mcp }) => {
  api = _api;
  acct = _acct;
  client = mcp;
});

test("wait_for_job streams notifications/progress when the call carries a progressToken", async () => {
  const created = (await client.callTool({
    name: "backlinks_overview",
    arguments: { target: "example.com" },
  })) as CallToolResult;
  const { jobId } = created.structuredContent as { jobId: string };
  const updates: Progress[] = [];
  // No runner here: the job stays pending for the whole wait.
  const result = (await client.callTool(
    { name: "wait_for_job", arguments: { jobId, timeoutSeconds: 2 } },
    undefined,
    {
      onprogress: (p) => updates.push(p),
    },
  )) as CallToolResult;
  expect((result.structuredContent as { status: string }).status).toBe("pending");
  expect(updates.length).toBeGreaterThanOrEqual(2);
  expect(updates.every((u) => u.total === 2)).toBe(true);
  expect(updates.at(-1)!.message).toContain("pending");
});

test("a call that asks no progress is answered as one JSON response, even when SSE is accepted", async () => {
  const res = await fetch(`${api.url}/api/v1/mcp`, {
    method: "POST",
    headers: {
      ...acct.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "get_credits", arguments: {} },
    }),
  });
  expect(res.headers.get("content-type")).toContain("application/json");
  expect((await res.json()).result.structuredContent.balance).toBeGreaterThan(0);
});

test("a raw call with a progressToken is answered as an event stream", async () => {
  const res = await fetch(`${api.url}/api/v1/mcp`, {
    method: "POST",
    headers: {
      ...acct.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 8,
      method: "tools/call",
      params: { name: "get_credits", arguments: {}, _meta: { progressToken: "p1" } },
    }),
  });
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  const text = await res.text();
  expect(text).toContain('"id":8');
  expect(text).toContain("balance");
});
