import { afterAll, beforeAll, expect, vi } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import { brandAnswers, type MonitorEngines, startMonitorEngines } from "@/test/fakes/monitor-engines";
import { type McpTestSetup, mcpTest } from "@/test/support/mcp-client";
import { answerAll } from "./helpers";

let fakes: MonitorEngines;
let setup: McpTestSetup;

beforeAll(async () => {
  fakes = await startMonitorEngines({
    answer: brandAnswers({ brand: "Acme Roasters", domain: "acme.com", mentionRate: 0.5, citeRate: 0.5 }),
  });
  for (const [k, v] of Object.entries(fakes.env)) vi.stubEnv(k, v!);
});
const test = mcpTest;
test.beforeAll(async ({ handle, api, acct, mcp }) => {
  setup = { handle, api, acct, client: mcp };
  await registerDomain(setup.handle.db, setup.acct.accountId, "acme.com");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await fakes?.close();
});

function data(result: unknown) {
  const r = result as { isError?: boolean; content: { type: string; text: string }[] };
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return JSON.parse(r.content[0]!.text);
}

test("create_monitor, run_monitor, list_monitor_runs, get_monitor_report and list_monitors over MCP", async () => {
  const { client } = setup;
  const created = data(
    await client.callTool({
      name: "create_monitor",
      arguments: {
        domain: "acme.com",
        prompts: ["best roaster in Lyon"],
        engines: ["ChatGPT", "Claude"],
        samples: 2,
        brandNames: ["Acme Roasters"],
        schedule: { every: "day", hour: 8, timeZone: "Europe/Paris" },
      },
    }),
  );
  expect(created.estimate).toMatchObject({ answersPerRun: 4, creditsPerRun: 20 });
  const run = data(
    await client.callTool({ name: "run_monitor", arguments: { id: created.id, idempotencyKey: "k1" } }),
  );
  const again = data(
    await client.callTool({ name: "run_monitor", arguments: { id: created.id, idempotencyKey: "k1" } }),
  );
  expect(again.id).toBe(run.id);
  await answerAll(setup.handle.db, process.env, fakes.fetch);
  const runs = data(await client.callTool({ name: "list_monitor_runs", arguments: { id: created.id } }));
  expect(runs.runs[0]).toMatchObject({ id: run.id, status: "completed", creditsCharged: 20 });
  const report = data(await client.callTool({ name: "get_monitor_report", arguments: { id: created.id } }));
  expect(report.total.mentionRate.n).toBe(4);
  const csv = data(
    await client.callTool({ name: "get_monitor_report", arguments: { id: created.id, format: "csv" } }),
  );
  expect(csv.csv).toMatch(/^scope,engine,prompt/);
  const list = data(await client.callTool({ name: "list_monitors", arguments: {} }));
  expect(list.monitors.map((m: { id: string }) => m.id)).toContain(created.id);
  const missing = (await client.callTool({ name: "run_monitor", arguments: { id: "nope" } })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  expect(missing.isError).toBe(true);
  expect(missing.content[0]!.text).toMatch(/NOT_FOUND/);
});
