import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { monitors } from "@/lib/db/schema";
import type { TestAccount } from "@/test/accounts";
import { balanceOf } from "@/test/accounts";
import { brandAnswers, type MonitorEngines, startMonitorEngines } from "@/test/fakes/monitor-engines";
import type { ApiClient } from "@/test/support/fixtures";
import { apiTest } from "@/test/support/fixtures";
import { answerAll, ledgerMismatches } from "./helpers";

let fakes: MonitorEngines;

beforeAll(async () => {
  fakes = await startMonitorEngines({
    answer: brandAnswers({ brand: "Acme Roasters", domain: "acme.com", mentionRate: 0.5, citeRate: 0.4 }),
    seed: 3,
  });
  // Three engines configured on the server; Gemini is not.
  for (const [k, v] of Object.entries(fakes.env)) if (!k.startsWith("GEMINI")) vi.stubEnv(k, v!);
  vi.stubEnv("GEMINI_API_KEY", "");
});

const test = apiTest.withAccount({
  credits: 2_000,
  domains: ["acme.com", "other.com"],
});
let db: Db;
let client: ApiClient;
let acct: TestAccount;
let account: (typeof apiTest extends never
  ? never
  : Parameters<Parameters<typeof test.beforeAll>[0]>[0])["account"];
let clientFor: (typeof apiTest extends never
  ? never
  : Parameters<Parameters<typeof test.beforeAll>[0]>[0])["clientFor"];
test.beforeAll(({ db: _db, client: _client, acct: _acct, account: _account, clientFor: _clientFor }) => {
  db = _db;
  client = _client;
  acct = _acct;
  account = _account;
  clientFor = _clientFor;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await fakes?.close();
});

const valid = {
  domain: "acme.com",
  prompts: ["best coffee roaster in Lyon"],
  brandNames: ["Acme Roasters"],
  samples: 2,
  schedule: { every: "week", weekday: "monday", hour: 9, timeZone: "Europe/Paris" },
};

async function create(body: unknown = valid, c = client) {
  const res = await c.post("/api/v1/monitors", body);
  return { status: res.status, body: await res.json() };
}

describe("validation: every bad input is a 400 envelope naming the field, never a 500", () => {
  const long = "x".repeat(2001);
  const cases: { name: string; body: unknown; field?: string }[] = [
    { name: "no body fields", body: {} },
    { name: "not an object", body: [1, 2] },
    { name: "unknown field", body: { ...valid, extra: 1 } },
    { name: "domain missing", body: { ...valid, domain: undefined }, field: "domain" },
    { name: "domain not a hostname", body: { ...valid, domain: "not a host" }, field: "domain" },
    { name: "no prompts", body: { ...valid, prompts: [] }, field: "prompts" },
    {
      name: "51 prompts",
      body: { ...valid, prompts: Array.from({ length: 51 }, (_, i) => `prompt ${i}`) },
      field: "prompts",
    },
    { name: "empty prompt", body: { ...valid, prompts: ["  "] }, field: "prompts.0" },
    { name: "prompt of 2001 characters", body: { ...valid, prompts: [long] }, field: "prompts.0" },
    { name: "duplicate prompts", body: { ...valid, prompts: ["a prompt", "A prompt"] }, field: "prompts" },
    { name: "prompts not an array", body: { ...valid, prompts: "a prompt" }, field: "prompts" },
    {
      name: "6 competitors",
      body: { ...valid, competitors: ["a.com", "b.com", "c.com", "d.com", "e.com", "f.com"] },
      field: "competitors",
    },
    {
      name: "competitor not a domain",
      body: { ...valid, competitors: ["not a domain"] },
      field: "competitors.0",
    },
    {
      name: "competitor is the domain",
      body: { ...valid, competitors: ["www.acme.com"] },
      field: "competitors",
    },
    { name: "unknown engine", body: { ...valid, engines: ["Bing"] }, field: "engines.0" },
    { name: "duplicate engines", body: { ...valid, engines: ["ChatGPT", "chatgpt"] }, field: "engines" },
    { name: "empty engines", body: { ...valid, engines: [] }, field: "engines" },
    { name: "engine not configured", body: { ...valid, engines: ["Gemini"] }, field: "engines" },
    { name: "samples 0", body: { ...valid, samples: 0 }, field: "samples" },
    { name: "samples 11", body: { ...valid, samples: 11 }, field: "samples" },
    { name: "samples 2.5", body: { ...valid, samples: 2.5 }, field: "samples" },
    { name: "samples as text", body: { ...valid, samples: "3" }, field: "samples" },
    { name: "schedule missing", body: { ...valid, schedule: undefined }, field: "schedule" },
    {
      name: "hour 24",
      body: { ...valid, schedule: { ...valid.schedule, hour: 24 } },
      field: "schedule.hour",
    },
    {
      name: "hour -1",
      body: { ...valid, schedule: { ...valid.schedule, hour: -1 } },
      field: "schedule.hour",
    },
    {
      name: "every month",
      body: { ...valid, schedule: { ...valid.schedule, every: "month" } },
      field: "schedule.every",
    },
    {
      name: "weekly without weekday",
      body: { ...valid, schedule: { every: "week", hour: 9, timeZone: "UTC" } },
      field: "schedule.weekday",
    },
    {
      name: "daily with weekday",
      body: { ...valid, schedule: { every: "day", weekday: "monday", hour: 9, timeZone: "UTC" } },
      field: "schedule.weekday",
    },
    {
      name: "bad weekday",
      body: { ...valid, schedule: { ...valid.schedule, weekday: "funday" } },
      field: "schedule.weekday",
    },
    {
      name: "unknown time zone",
      body: { ...valid, schedule: { ...valid.schedule, timeZone: "Mars/Olympus" } },
      field: "schedule.timeZone",
    },
    {
      name: "offset as time zone",
      body: { ...valid, schedule: { ...valid.schedule, timeZone: "+02:00" } },
      field: "schedule.timeZone",
    },
    { name: "cap 0", body: { ...valid, monthlyCreditCap: 0 }, field: "monthlyCreditCap" },
    { name: "cap negative", body: { ...valid, monthlyCreditCap: -5 }, field: "monthlyCreditCap" },
    { name: "cap fractional", body: { ...valid, monthlyCreditCap: 10.5 }, field: "monthlyCreditCap" },
    { name: "6 brand names too short", body: { ...valid, brandNames: ["a"] }, field: "brandNames.0" },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const before = await balanceOf(db, acct.accountId);
      const res = await create(c.body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
      expect(typeof res.body.requestId).toBe("string");
      if (c.field)
        expect(res.body.error.details.field ?? res.body.error.details.issues?.[0]?.field).toBe(c.field);
      expect(await balanceOf(db, acct.accountId)).toBe(before);
    });
  }

  test("an engine that is not configured is refused naming the available ones, before anything is stored", async () => {
    const res = await create({ ...valid, engines: ["ChatGPT", "Gemini"] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toMatchObject({
      available: ["ChatGPT", "Perplexity", "Claude"],
      unavailable: ["Gemini"],
    });
    expect(res.body.error.message).not.toMatch(/_API_KEY/);
  });

  test("a domain not registered on the account is 403 FORBIDDEN_SCOPE", async () => {
    const res = await create({ ...valid, domain: "stranger.com" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("FORBIDDEN_SCOPE");
  });

  test("query and path errors", async () => {
    expect((await client.fetch("/api/v1/monitors?limit=0")).status).toBe(400);
    expect((await client.fetch("/api/v1/monitors?cursor=nonsense")).status).toBe(400);
    expect((await client.fetch("/api/v1/monitors/not-a-uuid")).status).toBe(404);
    expect((await client.fetch("/api/v1/monitors/00000000-0000-4000-8000-000000000000/report")).status).toBe(
      404,
    );
    const m = (await create()).body.data;
    for (const q of [
      "from=yesterday",
      "from=2026-02-31",
      "compare=next",
      "format=xml",
      "from=2026-05-01&to=2026-04-01",
      "from=2020-01-01&to=2026-01-01",
    ]) {
      const res = await client.fetch(`/api/v1/monitors/${m.id}/report?${q}`);
      expect(res.status, q).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
    const patch = await client.fetch(`/api/v1/monitors/${m.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(patch.status).toBe(400);
  });
});

describe("a monitor's life", () => {
  test("create, list, get, patch, pause, resume, run, runs, report (JSON and CSV), delete", async () => {
    const created = await create({ ...valid, competitors: ["beanco.com"], monthlyCreditCap: 500 });
    expect(created.status).toBe(201);
    const m = created.body.data;
    expect(m).toMatchObject({
      domain: "acme.com",
      status: "active",
      engines: ["ChatGPT", "Perplexity", "Claude"],
      samples: 2,
      schedule: { every: "week", weekday: "monday", hour: 9, timeZone: "Europe/Paris" },
      estimate: { answersPerRun: 6, creditsPerRun: 30, creditsPerMonth: 130, creditsPerAnswer: 5 },
    });
    const next = new Date(m.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(
      new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", weekday: "long", hour: "numeric" }).format(
        next,
      ),
    ).toMatch(/Monday.*09/);

    const list = await (await client.fetch("/api/v1/monitors?limit=1")).json();
    expect(list.data.monitors).toHaveLength(1);
    expect(list.data.nextCursor).not.toBeNull();
    const page2 = await (
      await client.fetch(`/api/v1/monitors?limit=1&cursor=${list.data.nextCursor}`)
    ).json();
    expect(page2.data.monitors[0].id).not.toBe(list.data.monitors[0].id);

    const other = await account({ credits: 100 });
    expect((await clientFor(other).fetch(`/api/v1/monitors/${m.id}`)).status).toBe(404);

    const patched = await client.fetch(`/api/v1/monitors/${m.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ samples: 3, schedule: { every: "day", hour: 7, timeZone: "America/New_York" } }),
    });
    expect(patched.status).toBe(200);
    expect((await patched.json()).data).toMatchObject({
      samples: 3,
      estimate: { answersPerRun: 9, creditsPerMonth: 1350 },
    });

    const paused = await (await client.post(`/api/v1/monitors/${m.id}/pause`, {})).json();
    expect(paused.data).toMatchObject({ status: "paused", pauseReason: "paused_by_user", nextRunAt: null });
    const resumed = await (await client.post(`/api/v1/monitors/${m.id}/resume`, {})).json();
    expect(resumed.data).toMatchObject({ status: "active", pauseReason: null });

    const before = await balanceOf(db, acct.accountId);
    const run = await client.post(`/api/v1/monitors/${m.id}/run`, {});
    expect(run.status).toBe(202);
    const started = (await run.json()).data;
    expect(started).toMatchObject({ status: "running", answersPlanned: 9, creditsCharged: 45 });
    expect(await balanceOf(db, acct.accountId)).toBe(before - 45);
    await answerAll(db, process.env, fakes.fetch);

    const runs = await (await client.fetch(`/api/v1/monitors/${m.id}/runs`)).json();
    expect(runs.data.runs[0]).toMatchObject({
      id: started.id,
      status: "completed",
      creditsCharged: 45,
      creditsRefunded: 0,
    });
    expect(runs.data.runs[0].answers).toHaveLength(9);
    for (const a of runs.data.runs[0].answers) {
      expect(Array.isArray(a.cited) && Array.isArray(a.retrieved) && Array.isArray(a.queries)).toBe(true);
    }

    const report = await (await client.fetch(`/api/v1/monitors/${m.id}/report?compare=previous`)).json();
    expect(report.data.total.mentionRate.n).toBe(9);
    expect(report.data.total.change.mentionRate).toMatchObject({ significant: false });
    expect(report.data.previousPeriod).toBeDefined();
    const csv = await client.fetch(`/api/v1/monitors/${m.id}/report?format=csv`);
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe(
      "scope,engine,prompt,competitor,metric,value,n,low,high,delta,significant",
    );
    expect(text).toContain("total,,,,mentionRate,");

    // The cap: 45 spent of 500; a run is refused once it would pass it.
    await client.fetch(`/api/v1/monitors/${m.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ monthlyCreditCap: 60 }),
    });
    const capped = await client.post(`/api/v1/monitors/${m.id}/run`, {});
    expect(capped.status).toBe(400);
    expect((await capped.json()).error.details.reason).toBe("monthly_cap");

    const deleted = await client.fetch(`/api/v1/monitors/${m.id}`, { method: "DELETE" });
    expect((await deleted.json()).data).toEqual({ id: m.id, deleted: true });
    expect((await client.fetch(`/api/v1/monitors/${m.id}`)).status).toBe(404);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  test("a run the balance cannot cover is 402 and charges nothing", async () => {
    const poor = await account({ credits: 10, domains: ["acme.com"] });
    const c = clientFor(poor);
    const m = (await create({ ...valid, samples: 3 }, c)).body.data;
    const res = await c.post(`/api/v1/monitors/${m.id}/run`, {});
    expect(res.status).toBe(402);
    expect((await res.json()).error.details).toEqual({ required: 45, available: 10 });
    expect(await balanceOf(db, poor.accountId)).toBe(10);
  });

  test("a removed domain pauses its monitors; they resume once it is registered again", async () => {
    const m = (await create({ ...valid, domain: "other.com" })).body.data;
    const del = await client.fetch("/api/v1/domains/other.com", { method: "DELETE" });
    expect(del.status).toBe(200);
    const got = (await (await client.fetch(`/api/v1/monitors/${m.id}`)).json()).data;
    expect(got).toMatchObject({ status: "paused", pauseReason: "domain_removed", nextRunAt: null });
    const [row] = await db.select().from(monitors).where(eq(monitors.id, m.id));
    expect(row!.domainId).toBeNull();
    expect((await client.post(`/api/v1/monitors/${m.id}/run`, {})).status).toBe(403);
    expect((await client.post(`/api/v1/monitors/${m.id}/resume`, {})).status).toBe(403);
    await client.post("/api/v1/domains", { domain: "other.com" });
    const resumed = (await (await client.post(`/api/v1/monitors/${m.id}/resume`, {})).json()).data;
    expect(resumed).toMatchObject({ status: "active", pauseReason: null });
  });
});

describe("run now", () => {
  test("an Idempotency-Key replays the original run and charges once", async () => {
    const m = (await create()).body.data;
    const before = await balanceOf(db, acct.accountId);
    const first = await client.post(`/api/v1/monitors/${m.id}/run`, {}, { "idempotency-key": "run-once-1" });
    const second = await client.post(`/api/v1/monitors/${m.id}/run`, {}, { "idempotency-key": "run-once-1" });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect((await second.json()).data.id).toBe((await first.json()).data.id);
    expect(await balanceOf(db, acct.accountId)).toBe(before - 30);
    const bad = await client.post(`/api/v1/monitors/${m.id}/run`, {}, { "idempotency-key": "" });
    expect(bad.status).toBe(400);
    await answerAll(db, process.env, fakes.fetch);
  });
});
