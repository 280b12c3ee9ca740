// The schedules' REST routes: a validation table (every bad input a 400 envelope naming the field, never a 500,
// nothing charged), 403 for a domain not on the account, a tool that cannot run here refused before anything is
// stored, and a schedule's life (create, list, get, patch, run now with its Idempotency-Key, history, delete).
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { Db } from "@/lib/db/client";
import { auditSchedules } from "@/lib/db/schema";
import { createSchedule } from "@/lib/schedules";
import type { TestAccount } from "@/test/accounts";
import { balanceOf } from "@/test/accounts";
import type { ApiClient } from "@/test/support/fixtures";
import { apiTest } from "@/test/support/fixtures";

const test = apiTest.withAccount({ credits: 1_000, domains: ["acme.com"] });
let db: Db;
let client: ApiClient;
let acct: TestAccount;
test.beforeAll(({ db: _db, client: _client, acct: _acct }) => {
  db = _db;
  client = _client;
  acct = _acct;
});

const valid = {
  tool: "seo-aeo-geo-audit",
  url: "https://acme.com/pricing",
  every: "week",
  weekday: "monday",
  hour: 7,
  timeZone: "Europe/Paris",
};

async function create(body: unknown) {
  const res = await client.post("/api/v1/schedules", body);
  return { status: res.status, body: await res.json() };
}

async function patch(id: string, body: unknown) {
  const res = await client.fetch(`/api/v1/schedules/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("validation: every bad input is a 400 envelope naming the field", () => {
  const cases: { name: string; body: unknown; field?: string }[] = [
    { name: "no fields", body: {} },
    { name: "not an object", body: [1] },
    { name: "unknown field", body: { ...valid, extra: 1 } },
    { name: "tool missing", body: { ...valid, tool: undefined }, field: "tool" },
    { name: "tool not schedulable", body: { ...valid, tool: "serp" }, field: "tool" },
    { name: "url missing", body: { ...valid, url: undefined }, field: "url" },
    { name: "url not http", body: { ...valid, url: "ftp://acme.com/" }, field: "url" },
    { name: "url not a URL", body: { ...valid, url: "acme" }, field: "url" },
    { name: "every month", body: { ...valid, every: "month" }, field: "every" },
    { name: "hour 24", body: { ...valid, hour: 24 }, field: "hour" },
    { name: "hour -1", body: { ...valid, hour: -1 }, field: "hour" },
    { name: "hour 7.5", body: { ...valid, hour: 7.5 }, field: "hour" },
    { name: "hour as text", body: { ...valid, hour: "7" }, field: "hour" },
    { name: "weekly without weekday", body: { ...valid, weekday: undefined }, field: "weekday" },
    { name: "daily with weekday", body: { ...valid, every: "day" }, field: "weekday" },
    { name: "bad weekday", body: { ...valid, weekday: "funday" }, field: "weekday" },
    { name: "unknown time zone", body: { ...valid, timeZone: "Mars/Olympus" }, field: "timeZone" },
    { name: "offset as time zone", body: { ...valid, timeZone: "+02:00" }, field: "timeZone" },
    { name: "cap 0", body: { ...valid, monthlyCreditCap: 0 }, field: "monthlyCreditCap" },
    { name: "cap fractional", body: { ...valid, monthlyCreditCap: 1.5 }, field: "monthlyCreditCap" },
    { name: "strategy for another tool", body: { ...valid, strategy: "mobile" }, field: "strategy" },
    {
      name: "bad strategy",
      body: { ...valid, tool: "core-web-vitals", strategy: "tv" },
      field: "strategy",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const before = await balanceOf(db, acct.accountId);
      const res = await create(c.body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
      if (c.field) {
        expect(res.body.error.details.field ?? res.body.error.details.issues?.[0]?.field).toBe(c.field);
      }
      expect(await balanceOf(db, acct.accountId)).toBe(before);
    });
  }

  test("a URL of a domain not on the account is 403 FORBIDDEN_SCOPE; a subdomain of one is accepted", async () => {
    const res = await create({ ...valid, url: "https://stranger.com/" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("FORBIDDEN_SCOPE");
    const lookalike = await create({ ...valid, url: "https://notacme.com/" });
    expect(lookalike.status).toBe(403);
    const sub = await create({ ...valid, url: "https://blog.acme.com/post" });
    expect(sub.status).toBe(201);
    expect(sub.body.data.domain).toBe("acme.com");
  });

  test("a tool that cannot run here is refused before anything is stored", async () => {
    const before = await db.select().from(auditSchedules).where(eq(auditSchedules.accountId, acct.accountId));
    await expect(
      createSchedule(
        db,
        acct.accountId,
        {
          tool: "core-web-vitals",
          url: "https://acme.com/",
          every: "day",
          hour: 3,
          timeZone: "UTC",
        },
        { CHROME_PATH: "/nonexistent/chromium" },
      ),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: { reason: "tool_not_available_here" } });
    const after = await db.select().from(auditSchedules).where(eq(auditSchedules.accountId, acct.accountId));
    expect(after).toHaveLength(before.length);
  });

  test("query, path and patch errors", async () => {
    expect((await client.fetch("/api/v1/schedules?limit=0")).status).toBe(400);
    expect((await client.fetch("/api/v1/schedules?cursor=nonsense")).status).toBe(400);
    expect((await client.fetch("/api/v1/schedules/not-a-uuid")).status).toBe(404);
    expect(
      (await client.fetch("/api/v1/schedules/00000000-0000-4000-8000-000000000000/history")).status,
    ).toBe(404);
    const s = (await create(valid)).body.data;
    expect((await client.fetch(`/api/v1/schedules/${s.id}/history?limit=51`)).status).toBe(400);
    expect((await client.fetch(`/api/v1/schedules/${s.id}/history?cursor=x`)).status).toBe(400);
    for (const body of [
      {},
      { hour: 25 },
      { every: "week", weekday: "monday" },
      { every: "day", hour: 1, timeZone: "UTC", weekday: "monday" },
      { status: "stopped" },
      { timeZone: "Nowhere/Land" },
      { monthlyCreditCap: -1 },
      { tool: "audits" },
    ]) {
      const res = await patch(s.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("a schedule's life", () => {
  test("create, list, get, patch, pause, resume, run now (idempotent), history, delete", async () => {
    const created = await create({
      ...valid,
      tool: "ai-access",
      url: "https://acme.com/",
      monthlyCreditCap: 100,
    });
    expect(created.status).toBe(201);
    const s = created.body.data;
    expect(s).toMatchObject({
      domain: "acme.com",
      tool: "ai-access",
      url: "https://acme.com/",
      every: "week",
      weekday: "monday",
      hour: 7,
      timeZone: "Europe/Paris",
      status: "active",
      monthlyCreditCap: 100,
      estimate: { creditsPerRun: 5, creditsPerMonth: 22 },
    });
    expect(new Date(s.nextRunAt).getTime()).toBeGreaterThan(Date.now());

    const list = await (await client.fetch("/api/v1/schedules?domain=acme.com&limit=100")).json();
    expect(list.data.schedules.map((x: { id: string }) => x.id)).toContain(s.id);
    const got = await (await client.fetch(`/api/v1/schedules/${s.id}`)).json();
    expect(got.data.id).toBe(s.id);

    const moved = await patch(s.id, { every: "day", hour: 22, timeZone: "America/New_York" });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ every: "day", hour: 22, timeZone: "America/New_York" });
    expect(moved.body.data.weekday).toBeUndefined();
    const paused = await patch(s.id, { status: "paused" });
    expect(paused.body.data).toMatchObject({
      status: "paused",
      pauseReason: "paused_by_user",
      nextRunAt: null,
    });
    const resumed = await patch(s.id, { status: "active", monthlyCreditCap: null });
    expect(resumed.body.data).toMatchObject({ status: "active", pauseReason: null, monthlyCreditCap: null });

    const before = await balanceOf(db, acct.accountId);
    const run = await client.post(`/api/v1/schedules/${s.id}/run`, {}, { "idempotency-key": "run-1" });
    expect(run.status).toBe(202);
    const started = (await run.json()).data;
    expect(started).toMatchObject({
      scheduleId: s.id,
      status: "running",
      creditsCharged: 5,
      replayed: false,
    });
    const again = await client.post(`/api/v1/schedules/${s.id}/run`, {}, { "idempotency-key": "run-1" });
    expect(again.status).toBe(202);
    expect((await again.json()).data).toMatchObject({ runId: started.runId, replayed: true });
    expect(await balanceOf(db, acct.accountId)).toBe(before - 5);
    const job = await (await client.fetch(`/api/v1/jobs/${started.jobId}`)).json();
    expect(job.data).toMatchObject({ tool: "ai-access", creditsCharged: 5 });

    const history = await (await client.fetch(`/api/v1/schedules/${s.id}/history`)).json();
    expect(history.data.runs).toHaveLength(1);
    expect(history.data.runs[0]).toMatchObject({ id: started.runId, status: "running", changes: null });

    const deleted = await client.fetch(`/api/v1/schedules/${s.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await client.fetch(`/api/v1/schedules/${s.id}`)).status).toBe(404);
  });

  test("at most 20 schedules per domain", async () => {
    const { db: d } = { db };
    const rows = await d.select().from(auditSchedules).where(eq(auditSchedules.accountId, acct.accountId));
    for (let i = rows.length; i < 20; i++)
      expect((await create({ ...valid, url: `https://acme.com/p${i}` })).status).toBe(201);
    const res = await create({ ...valid, url: "https://acme.com/one-more" });
    expect(res.status).toBe(400);
    expect(res.body.error.details.reason).toBe("schedule_limit");
  });
});
