import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { TOOL_NAMES } from "@/lib/tools/catalog";
import { E2E_BASE_URL } from "../../playwright.config";
import { e2eAccount } from "../accounts";

// The official MCP client against the production build: Next's pipeline must pass the transport through.
test("the MCP SDK client lists every tool and reads credits over POST /api/v1/mcp", async () => {
  const acct = e2eAccount("newman");
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${E2E_BASE_URL}/api/v1/mcp`), {
      requestInit: { headers: acct.headers },
    }),
  );
  try {
    const { tools } = await client.listTools();
    // One per catalogue tool, plus the reads (jobs, credits, bot stats, citations, engines, visibility, Search
    // Console queries, analytics traffic, capabilities, the page funnel) and the monitors' tools.
    const names = tools.map((t) => t.name);
    for (const tool of TOOL_NAMES) expect(names).toContain(tool.replaceAll("-", "_"));
    expect(names).toEqual(expect.arrayContaining(["get_search_console_queries", "get_analytics_traffic"]));
    // Exactly these: none lost in the production build's pipeline. (The spec cannot import lib/mcp, whose
    // catalogue data Playwright's loader does not read; test/mcp holds the list to the code.)
    const others = [
      ...["get_job", "wait_for_job", "list_jobs", "get_credits", "get_bot_stats", "get_citations"],
      ...["get_page_funnel", "list_engines", "get_capabilities", "get_visibility"],
      ...["get_search_console_queries", "get_analytics_traffic"],
      ...["create_monitor", "list_monitors", "run_monitor", "list_monitor_runs", "get_monitor_report"],
      ...["create_schedule", "list_schedules", "run_schedule", "get_schedule_history"],
    ];
    expect([...names].sort()).toEqual([...TOOL_NAMES.map((t) => t.replaceAll("-", "_")), ...others].sort());
    const credits = await client.callTool({ name: "get_credits", arguments: {} });
    expect(credits.isError ?? false).toBe(false);
    expect((credits.structuredContent as { balance: number }).balance).toBeGreaterThan(0);
    const missing = await client.callTool({
      name: "get_job",
      arguments: { jobId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ code: "NOT_FOUND" });
  } finally {
    await client.close();
  }
});

test("POST /api/v1/mcp without credentials is 401 in the envelope", async ({ request }) => {
  const res = await request.post("/api/v1/mcp", {
    headers: { accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(res.status()).toBe(401);
  expect((await res.json()).error.code).toBe("UNAUTHORIZED");
});
