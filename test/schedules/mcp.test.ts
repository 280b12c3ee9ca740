// The scheduled audits' MCP tools: create_schedule, list_schedules, run_schedule (billed, idempotent) and
// get_schedule_history, with the REST routes' rules (a URL outside the account's domains is refused).
import { expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import { balanceOf } from "@/test/accounts";
import { type McpTestSetup, mcpTest } from "@/test/support/mcp-client";

let setup: McpTestSetup;

const test = mcpTest;
test.beforeAll(async ({ handle, api, acct, mcp }) => {
  setup = { handle, api, acct, client: mcp };
  await registerDomain(setup.handle.db, setup.acct.accountId, "acme.com");
});

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };

function data(result: unknown) {
  const r = result as ToolResult;
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return JSON.parse(r.content[0]!.text);
}

test("create_schedule, list_schedules, run_schedule and get_schedule_history over MCP", async () => {
  const { client, handle, acct } = setup;
  const refused = (await client.callTool({
    name: "create_schedule",
    arguments: { tool: "ai-access", url: "https://stranger.com/", every: "day", hour: 8, timeZone: "UTC" },
  })) as ToolResult;
  expect(refused.isError).toBe(true);
  expect(refused.content[0]!.text).toMatch(/FORBIDDEN_SCOPE|not registered/);

  const created = data(
    await client.callTool({
      name: "create_schedule",
      arguments: {
        tool: "ai-access",
        url: "https://acme.com/",
        every: "week",
        weekday: "friday",
        hour: 8,
        timeZone: "Europe/Paris",
      },
    }),
  );
  expect(created).toMatchObject({ tool: "ai-access", weekday: "friday", estimate: { creditsPerRun: 5 } });
  const list = data(await client.callTool({ name: "list_schedules", arguments: { domain: "acme.com" } }));
  expect(list.schedules.map((s: { id: string }) => s.id)).toEqual([created.id]);

  const before = await balanceOf(handle.db, acct.accountId);
  const run = data(
    await client.callTool({ name: "run_schedule", arguments: { id: created.id, idempotencyKey: "k1" } }),
  );
  const again = data(
    await client.callTool({ name: "run_schedule", arguments: { id: created.id, idempotencyKey: "k1" } }),
  );
  expect(again).toMatchObject({ runId: run.runId, replayed: true });
  expect(await balanceOf(handle.db, acct.accountId)).toBe(before - 5);

  const history = data(
    await client.callTool({ name: "get_schedule_history", arguments: { id: created.id, limit: 5 } }),
  );
  expect(history.runs).toHaveLength(1);
  expect(history.runs[0]).toMatchObject({ id: run.runId, jobId: run.jobId, creditsCharged: 5 });
});
