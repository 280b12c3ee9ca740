import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { grantPendingSignupBonus } from "@/lib/accounts/accounts";
import { grantCredits } from "@/lib/credits/credits";
import { type Actor, getActor } from "@/lib/dashboard/members";
import { signUp } from "@/lib/dashboard/signup";
import { checkLaunch, launchTool } from "@/lib/dashboard/tools";
import type { DbHandle } from "@/lib/db/client";
import { UNAVAILABLE_REASONS } from "@/lib/errors/unavailable";
import { TOOL_NAMES, TOOLS } from "@/lib/tools/catalog";
import { toolProbes } from "@/lib/tools/verdict";
import { apiTest } from "@/test/support/fixtures";
import { balanceOf, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";

// GET /api/v1/capabilities, its MCP twin, and the one rule behind them: every input the API accepts is accepted
// by the dashboard's launch, every input it refuses is refused there with the same reason, before any charge.
const test = apiTest.withAccount({ credits: 1_000_000 });
let handle: DbHandle;
let api: TestApi;
let acct: TestAccount;
let actor: Actor;
let dir: string;
let chromium: string;

const ENV_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]{2,}\b/;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "capabilities-"));
  chromium = path.join(dir, "chromium");
  writeFileSync(chromium, "#!/bin/sh\nexit 1\n");
  chmodSync(chromium, 0o755);
  // A server as a new customer finds it: one AI engine, no DataForSEO, no Stripe, no SMTP, no connections.
  for (const p of ["OPENAI", "PERPLEXITY", "ANTHROPIC", "GEMINI"]) vi.stubEnv(`${p}_API_KEY`, "");
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:9");
  for (const name of [
    "DATAFORSEO_LOGIN",
    "DATAFORSEO_PASSWORD",
    "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET",
    "SMTP_URL",
    "CRUX_API_KEY",
    "GOOGLE_CLIENT_ID",
    "GOOGLE_CLIENT_SECRET",
    "DATA_ENCRYPTION_KEY",
  ]) {
    vi.stubEnv(name, "");
  }
  vi.stubEnv("CHROME_PATH", chromium);
});
test.beforeAll(async ({ handle: _handle, api: _api, acct: _acct }) => {
  handle = _handle;
  api = _api;
  acct = _acct;
  const { user } = await signUp(handle.db, {
    email: `caps-${process.pid}@example.com`,
    password: "correct horse battery",
  });
  await handle.db.transaction((tx) => grantPendingSignupBonus(tx, user.id));
  actor = (await getActor(handle.db, user.id))!;
  await grantCredits(handle.db, actor.accountId, 1_000_000, { description: "test grant" });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

async function getCapabilities() {
  const res = await fetch(`${api.url}/api/v1/capabilities`, { headers: acct.headers });
  return { res, body: await res.json() };
}

async function post(tool: string, body: unknown) {
  const res = await fetch(`${api.url}/api/v1/${tool}`, {
    method: "POST",
    headers: { ...acct.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("GET /api/v1/capabilities", () => {
  test("every tool and further capability, with a reason from the closed list when not available", async () => {
    const { res, body } = await getCapabilities();
    expect(res.status).toBe(200);
    expect(body.success).toBe(true);
    const tools = Object.fromEntries(body.data.tools.map((t: { name: string }) => [t.name, t]));
    expect(Object.keys(tools)).toEqual(TOOL_NAMES);
    expect(tools.audits).toMatchObject({ available: true });
    expect(tools["core-web-vitals"]).toMatchObject({ available: true });
    expect(tools.serp).toMatchObject({ available: false, reason: "provider_not_configured" });
    expect(tools["keyword-metrics"]).toMatchObject({ available: false, reason: "provider_not_configured" });
    expect(tools["backlinks-overview"]).toMatchObject({
      available: false,
      reason: "provider_not_configured",
    });
    expect(tools["keyword-research"]).toMatchObject({
      available: true,
      options: [
        { option: "url", available: true },
        { option: "keywords", available: false, reason: "provider_not_configured" },
      ],
    });
    expect(tools["ai-citation-check"].available).toBe(true);
    expect(tools["ai-citation-check"].options).toContainEqual({
      option: "engines=Claude",
      available: false,
      reason: "engine_not_configured",
    });
    const other = Object.fromEntries(body.data.capabilities.map((c: { name: string }) => [c.name, c]));
    expect(other["engine:ChatGPT"]).toMatchObject({ available: true });
    expect(other["engine:Gemini"]).toMatchObject({ available: false, reason: "engine_not_configured" });
    expect(other["search-console"]).toMatchObject({ available: false, reason: "connections_not_configured" });
    expect(other["credit-purchases"]).toMatchObject({ available: false, reason: "payments_not_configured" });
    expect(other.email).toMatchObject({ available: false, reason: "email_not_configured" });
    expect(other["cwv-field-data"]).toMatchObject({ available: false, reason: "provider_not_configured" });
    for (const entry of [...body.data.tools, ...body.data.capabilities]) {
      if (entry.available) expect(entry.reason).toBeUndefined();
      else expect(UNAVAILABLE_REASONS).toContain(entry.reason);
    }
    // Customers read these: no settings named.
    expect(JSON.stringify(body.data)).not.toMatch(ENV_NAME);
  });

  test("a missing browser is browser_missing, and the 400 of a launch says the same", async () => {
    vi.stubEnv("CHROME_PATH", path.join(dir, "absent"));
    try {
      const { body } = await getCapabilities();
      const cwv = body.data.tools.find((t: { name: string }) => t.name === "core-web-vitals");
      expect(cwv).toMatchObject({ available: false, reason: "browser_missing" });
      const refused = await post("core-web-vitals", { url: "https://example.com/" });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.reason).toBe("browser_missing");
    } finally {
      vi.stubEnv("CHROME_PATH", chromium);
    }
  });

  test("is free, and needs a key", async () => {
    const before = await balanceOf(handle.db, acct.accountId);
    await getCapabilities();
    expect(await balanceOf(handle.db, acct.accountId)).toBe(before);
    const anonymous = await fetch(`${api.url}/api/v1/capabilities`);
    expect(anonymous.status).toBe(401);
  });

  test("the MCP tool get_capabilities answers the same", async () => {
    const client = new Client({ name: "caps-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), {
        requestInit: { headers: acct.headers },
      }),
    );
    try {
      const result = (await client.callTool({ name: "get_capabilities", arguments: {} })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const viaMcp = JSON.parse((result.content[0] as { text: string }).text);
      expect(viaMcp).toEqual((await getCapabilities()).body.data);
    } finally {
      await client.close();
    }
  });
});

describe("one rule for the API and the dashboard's launch", () => {
  test("every tool input gets the same verdict from POST /api/v1/<tool>, the launcher's check and its launch", async () => {
    const { body } = await getCapabilities();
    let accepted = 0;
    let refused = 0;
    for (const name of TOOL_NAMES) {
      const tool = TOOLS[name];
      const capability = body.data.tools.find((t: { name: string }) => t.name === name);
      let someAccepted = false;
      for (const probe of [{ option: "example", input: tool.example }, ...toolProbes(tool)]) {
        const label = `${name} ${probe.option}`;
        const viaApi = await post(name, probe.input);
        const check = await checkLaunch(handle.db, name, probe.input);
        const launch = await launchTool(handle.db, actor, name, probe.input);
        if (viaApi.status === 202) {
          accepted++;
          someAccepted = true;
          expect(check, label).toEqual({ ok: true });
          expect(launch, label).toMatchObject({ ok: true });
        } else {
          refused++;
          expect(viaApi.status, label).toBe(400);
          const reason = viaApi.body.error.details.reason;
          expect(UNAVAILABLE_REASONS, label).toContain(reason);
          expect(check, label).toMatchObject({ ok: false, reason });
          expect(launch, label).toMatchObject({ ok: false, reason });
          // The dashboard's words name no setting, whatever the API's message says.
          if (!launch.ok) expect(launch.message, label).not.toMatch(ENV_NAME);
        }
      }
      expect(capability.available, name).toBe(someAccepted);
    }
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(5);
  });
});
