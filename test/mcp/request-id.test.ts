// JSON-RPC bodies have no envelope: MCP answers carry the HTTP request's id (X-Request-Id) in `_meta` of
// every result and in the text of every tool error, where MCP clients show it. Missing arguments say "Required.".
import { expect } from "vitest";
import { type McpTestSetup, mcpTest } from "../support/mcp-client";

let setup: McpTestSetup;
const test = mcpTest;
test.beforeAll(async ({ handle, api, acct, mcp }) => {
  setup = { handle, api, acct, client: mcp };
});

/** One JSON-RPC message over plain HTTP, with the answer's X-Request-Id. */
async function rpc(message: Record<string, unknown>) {
  const res = await fetch(`${setup.api.url}/api/v1/mcp`, {
    method: "POST",
    headers: {
      ...setup.acct.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }),
  });
  const header = res.headers.get("x-request-id");
  expect(header).toMatch(/^req_/);
  return { header: header!, body: (await res.json()) as any };
}

test("a tool result carries the request id in _meta", async () => {
  const { header, body } = await rpc({
    method: "tools/call",
    params: { name: "get_credits", arguments: {} },
  });
  expect(body.result.isError).toBeUndefined();
  expect(body.result._meta).toEqual({ requestId: header });
  expect(body.result.structuredContent.balance).toBe(1000);
});

test("a tool error carries it in _meta, in structuredContent and in the text a client shows", async () => {
  const { header, body } = await rpc({
    method: "tools/call",
    params: { name: "get_job", arguments: { jobId: "00000000-0000-4000-8000-000000000000" } },
  });
  expect(body.result.isError).toBe(true);
  expect(body.result._meta).toEqual({ requestId: header });
  expect(body.result.structuredContent).toMatchObject({ code: "NOT_FOUND", requestId: header });
  expect(body.result.content[0].text).toContain(`requestId: ${header}`);
});

test("tools/list carries it too", async () => {
  const { header, body } = await rpc({ method: "tools/list", params: {} });
  expect(body.result._meta).toEqual({ requestId: header });
  expect(body.result.tools.length).toBeGreaterThan(5);
});

test("a protocol error (invalid params) names it in its message and data", async () => {
  const { header, body } = await rpc({ method: "tools/call", params: { name: 5 } });
  expect(body.error.code).toBe(-32602);
  expect(body.error.message).toContain(`requestId ${header}`);
  expect(body.error.data).toEqual({ requestId: header });
});

test('through the SDK client: a missing argument says "Required.", and the error text names the request id', async () => {
  const result = (await setup.client.callTool({
    name: "brand_visibility",
    arguments: { domain: "example.com" },
  })) as any;
  expect(result.isError).toBe(true);
  expect(result.structuredContent.code).toBe("VALIDATION_ERROR");
  expect(result.structuredContent.message).toContain("prompt: Required.");
  expect(result.content[0].text).not.toMatch(/received undefined|Invalid input/);
  expect(result.content[0].text).toMatch(/requestId: req_/);
  expect(result._meta.requestId).toBe(result.structuredContent.requestId);
});
