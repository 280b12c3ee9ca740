import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { mcpToolName } from "@/lib/mcp/tools";
import { TOOL_NAMES } from "@/lib/tools/catalog";
import { CITATIONS_DAYS, CITATIONS_LIMIT } from "@/lib/tracking/api-schemas";
import { mcpTest } from "@/test/support/mcp-client";
import { balanceOf, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";

let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let client: Client;

const test = mcpTest;
test.beforeAll(({ handle: _handle, api: _api, acct: _acct, mcp }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
  client = mcp;
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe("billed MCP tools take an idempotencyKey", () => {
  test("listed in every billed tool's input schema", async () => {
    const { tools } = await client.listTools();
    // Every catalogue tool creates a billed job; running a monitor or a scheduled audit now bills it.
    const billed = [...TOOL_NAMES.map(mcpToolName), "run_monitor", "run_schedule"];
    // The tools that change something: the billed ones, and creating a monitor or a schedule (free until run).
    const writing = tools.filter((t) => t.annotations?.readOnlyHint === false).map((t) => t.name);
    expect(writing.sort()).toEqual([...billed, "create_monitor", "create_schedule"].sort());
    for (const name of billed) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.inputSchema.properties, name).toHaveProperty("idempotencyKey");
    }
  });

  test("a replay returns the original job and charges once; other arguments with the key are refused", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    const args = { target: "example.com", idempotencyKey: "mcp-key-1" };
    const first = await call("backlinks_overview", args);
    const second = await call("backlinks_overview", args);
    expect(first.isError ?? false).toBe(false);
    const a = first.structuredContent as { jobId: string; idempotentReplayed?: boolean };
    const b = second.structuredContent as { jobId: string; idempotentReplayed?: boolean };
    expect(b.jobId).toBe(a.jobId);
    expect(a.idempotentReplayed).toBeUndefined();
    expect(b.idempotentReplayed).toBe(true);
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 15);

    const reused = await call("backlinks_overview", { target: "other.example", idempotencyKey: "mcp-key-1" });
    expect(reused.isError).toBe(true);
    expect(reused.structuredContent).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { reason: "idempotency_key_reused" },
    });
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 15);
  });

  test("the same key means the same request on the REST edge", async () => {
    const created = await call("backlinks_overview", { target: "example.com", idempotencyKey: "shared-key" });
    const { jobId } = created.structuredContent as { jobId: string };
    const res = await fetch(`${api.url}/api/v1/backlinks-overview`, {
      method: "POST",
      headers: { ...acct.headers, "content-type": "application/json", "idempotency-key": "shared-key" },
      body: JSON.stringify({ target: "example.com" }),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get("idempotent-replayed")).toBe("true");
    expect((await res.json()).data.jobId).toBe(jobId);
  });

  test("a malformed key is a VALIDATION_ERROR naming idempotencyKey, before any charge", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    const bad = await call("backlinks_overview", { target: "example.com", idempotencyKey: "has space" });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "idempotencyKey" },
    });
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
  });
});

test("get_citations takes the REST query's bounds and defaults, written once", async () => {
  const { tools } = await client.listTools();
  const citations = tools.find((t) => t.name === "get_citations")!;
  const props = citations.inputSchema.properties as Record<string, Record<string, unknown>>;
  expect(props.days).toMatchObject({ minimum: CITATIONS_DAYS.min, maximum: CITATIONS_DAYS.max });
  expect(props.days!.default).toBe(CITATIONS_DAYS.default);
  expect(props.limit).toMatchObject({ minimum: CITATIONS_LIMIT.min, maximum: CITATIONS_LIMIT.max });
});
