// Scheduled audits end to end on a real database: due schedules claimed by two job runners at once run once each;
// each run is the tool's job, charged once at the catalogue price (ledger = balance), refunded once when the job
// fails; the cap and an empty balance skip the run and tell the owner; three runs against a local site whose
// robots.txt changes between them give the right new / fixed / open issues and exactly one `audit.regressed`,
// delivered through the outbox.
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { registerDomain, removeDomain } from "@/lib/accounts/domains";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { accountNotices, auditScheduleRuns, auditSchedules } from "@/lib/db/schema";
import { JOBS_CHANNEL } from "@/lib/jobs/events";
import { JobRunner, type RunnerOptions, toolSourceFrom } from "@/lib/jobs/runner";
import {
  createSchedule,
  listHistory,
  runScheduleNow,
  scheduleOverview,
  updateSchedule,
} from "@/lib/schedules";
import { closeFinishedRuns } from "@/lib/schedules/finalize";
import { JOBS_CREATED_CHANNEL } from "@/lib/schedules/runs";
import { auditScheduleKind } from "@/lib/schedules/schedule-kind";
import { runner as aiAccessRunner } from "@/lib/tools/ai-access/run";
import { runner as auditsRunner } from "@/lib/tools/audits/run";
import { TOOLS } from "@/lib/tools/catalog";
import { ToolError } from "@/lib/tools/types";
import { deliverDueWebhooks } from "@/lib/webhooks";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { createRoutedFetch } from "@/test/fakes/ai/engines";
import { type FakeSmtp, startFakeSmtp } from "@/test/fakes/smtp";
import { type Receiver, startReceiver } from "@/test/fakes/webhook-receiver";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { dbTest } from "@/test/support/fixtures";
import { balanceOf, createTestAccount } from "../accounts";

const test = dbTest;
let handle: DbHandle;
let site: FixtureServer;
let smtp: FakeSmtp;
let receiver: Receiver;
/** The site's robots.txt, changed between runs. */
let robots = "User-agent: *\nAllow: /\n";
/** The page the URL audit reads, changed between runs (the fixture site's good and bad pages). */
let auditedPage = "good.html";
const FIXTURE_SITE = path.join(process.cwd(), "test/fixtures/site");
const opts: RunnerOptions = { concurrency: 4, leaseSeconds: 30, queueTimeoutSeconds: 600, pollMs: 50 };

beforeAll(async () => {
  smtp = await startFakeSmtp();
  vi.stubEnv("SMTP_URL", smtp.url);
  vi.stubEnv("ALLOW_PRIVATE_TARGETS", "loopback");
  receiver = await startReceiver();
  site = await startFixtureServer({
    routes: {
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end('<html><head><title>Acme</title></head><body><a href="/docs/a">Docs</a></body></html>');
      },
      "/robots.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(robots);
      },
      "/landing": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(readFileSync(path.join(FIXTURE_SITE, auditedPage)));
      },
    },
  });
});
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await site?.close();
  await smtp?.close();
  await receiver?.close();
});

/** A job runner whose tools read the fixture site as acme.com; its URL audits fail unless `realAudits`. */
function runner(options: { realAudits?: boolean } = {}) {
  const fetch = createRoutedFetch({ "acme.com": site.url, "www.acme.com": site.url });
  const tools = toolSourceFrom({
    "ai-access": {
      definition: TOOLS["ai-access"],
      runner: { run: (input, ctx) => aiAccessRunner.run(input, { ...ctx, fetch }) },
    },
    audits: {
      definition: TOOLS.audits,
      runner: options.realAudits
        ? { run: (input, ctx) => auditsRunner.run(input, { ...ctx, fetch }) }
        : {
            run: async () => {
              throw new ToolError("FETCH_FAILED", "The page could not be fetched.");
            },
          },
    },
  });
  return new JobRunner(handle.db, opts, tools, {}, [auditScheduleKind()]);
}

/** One pass: due schedules become jobs, the jobs run, the runs are closed. */
async function passAll(...runners: JobRunner[]) {
  await Promise.all(runners.map((r) => r.pass()));
  // Later passes run the jobs the first made, then close the runs whose jobs finished.
  for (let i = 0; i < 20; i++) {
    await Promise.all(runners.map((r) => r.pass()));
    await Promise.all(runners.map((r) => r.drain()));
    const [open] = rowsOf<{ n: number }>(
      await handle.db.execute(
        sql`select count(*)::int as n from audit_schedule_runs where status = 'running'`,
      ),
    );
    if (Number(open?.n) === 0) return;
  }
}

async function makeDue(id: string) {
  await handle.db.execute(
    sql`update audit_schedules set next_run_at = now() - interval '1 second' where id = ${id}`,
  );
}

async function ledgerMismatches() {
  return rowsOf(
    await handle.db.execute(sql`
      select a.id from accounts a left join credit_ledger l on l.account_id = a.id
      group by a.id having a.credit_balance <> coalesce(sum(l.amount), 0)`),
  );
}

async function eventsOf(accountId: string) {
  return rowsOf<{ type: string; payload: { data: Record<string, unknown> } }>(
    await handle.db.execute(
      sql`select type, payload from webhook_events where account_id = ${accountId} order by created_at, id`,
    ),
  );
}

const daily = { every: "day" as const, hour: 6, timeZone: "Europe/Paris" };

describe("the scheduler", () => {
  test("a run's job is announced on the channel the job runners listen on", () => {
    expect(JOBS_CREATED_CHANNEL).toBe(JOBS_CHANNEL);
  });

  test("schedules claimed by two runners at once run once each, charged once", async () => {
    const db = handle.db;
    const acct = await createTestAccount(db, { credits: 1000, domains: ["acme.com"] });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const s = await createSchedule(db, acct.accountId, {
        tool: "ai-access",
        url: `https://acme.com/p${i}`,
        ...daily,
      });
      expect(s.estimate.creditsPerRun).toBe(5);
      ids.push(s.id);
    }
    for (const id of ids) await makeDue(id);
    await passAll(runner(), runner());
    const runs = await db
      .select()
      .from(auditScheduleRuns)
      .where(eq(auditScheduleRuns.accountId, acct.accountId));
    expect(runs).toHaveLength(8);
    expect(new Set(runs.map((r) => r.scheduleId)).size).toBe(8);
    expect(runs.every((r) => r.status === "completed" && r.creditsCharged === 5)).toBe(true);
    expect(await balanceOf(db, acct.accountId)).toBe(1000 - 8 * 5);
    expect(await ledgerMismatches()).toEqual([]);
    // Each schedule moved to its next slot, in the future.
    const after = await db.select().from(auditSchedules).where(eq(auditSchedules.accountId, acct.accountId));
    expect(after.every((s) => s.nextRunAt!.getTime() > Date.now())).toBe(true);
    // A second pass finds nothing due and charges nothing.
    await passAll(runner(), runner());
    expect(await balanceOf(db, acct.accountId)).toBe(960);
  });
});

describe("history", () => {
  test("three runs: new, fixed and still open issues, one audit.regressed, delivered through the outbox", async () => {
    const db = handle.db;
    const acct = await createTestAccount(db, { credits: 1000, domains: ["acme.com"] });
    const { secret } = await createEndpoint(db, acct.accountId, {
      url: receiver.url,
      events: ["audit.completed", "audit.regressed"],
    });
    receiver.secrets = [secret];
    const s = await createSchedule(db, acct.accountId, {
      tool: "ai-access",
      url: "https://acme.com/",
      ...daily,
    });
    const r = runner();
    // Run 1: ClaudeBot blocked.
    robots = "User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
    await makeDue(s.id);
    await passAll(r);
    // Run 2: GPTBot blocked too (a new failure: the regression).
    robots =
      "User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
    await makeDue(s.id);
    await passAll(r);
    // Run 3: GPTBot allowed again (fixed); ClaudeBot still blocked (open).
    robots = "User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
    await makeDue(s.id);
    await passAll(r);

    const { runs } = await listHistory(db, acct.accountId, s.id, { limit: 10 });
    expect(runs.map((x) => x.status)).toEqual(["completed", "completed", "completed"]);
    const [third, second, first] = runs;
    expect(first!.changes).toBeNull();
    expect(first!.regressed).toBe(false);
    const ids = (list: { id: string }[]) => list.map((c) => c.id);
    expect(ids(second!.changes!.new).some((id) => id.includes("GPTBot"))).toBe(true);
    expect(ids(second!.changes!.new).some((id) => id.includes("ClaudeBot"))).toBe(false);
    expect(ids(second!.changes!.open).some((id) => id.includes("ClaudeBot"))).toBe(true);
    expect(second!.changes!.fixed).toEqual([]);
    expect(second!.regressed).toBe(true);
    expect(second!.changes!.regressions.some((m) => m.includes("GPTBot"))).toBe(true);
    expect(second!.changes!.previousRunId).toBe(first!.id);
    expect(ids(third!.changes!.fixed).some((id) => id.includes("GPTBot"))).toBe(true);
    expect(ids(third!.changes!.open).some((id) => id.includes("ClaudeBot"))).toBe(true);
    expect(ids(third!.changes!.new).filter((id) => id.startsWith("ai-access.row."))).toEqual([]);
    expect(third!.regressed).toBe(false);

    // Exactly one regression event (the second run); the first and the improvement are audit.completed.
    const events = (await eventsOf(acct.accountId)).filter((e) => e.type.startsWith("audit."));
    expect(events.map((e) => e.type)).toEqual(["audit.completed", "audit.regressed", "audit.completed"]);
    expect(events[1]!.payload.data.runId).toBe(second!.id);

    // The outbox delivers them, signed, to the endpoint.
    await deliverDueWebhooks(db);
    const got = receiver.received.filter((m) => m.payload.type.startsWith("audit."));
    expect(got.map((m) => m.payload.type).sort()).toEqual([
      "audit.completed",
      "audit.completed",
      "audit.regressed",
    ]);
    expect(got.every((m) => m.verifiedWith.length === 1)).toBe(true);

    // The dashboard's view: ClaudeBot's issue open since the first run (three runs), the trend of three.
    const overview = await scheduleOverview(db, acct.accountId, s.id);
    const claude = overview.openIssues.find((i) => i.id.includes("ClaudeBot"));
    expect(claude?.runs).toBe(3);
    expect(claude?.since).toBe(first!.createdAt);
    expect(overview.openIssues.some((i) => i.id.includes("GPTBot"))).toBe(false);
    expect(overview.trend).toHaveLength(3);
    expect(overview.lastCompleted?.id).toBe(third!.id);

    // The history outlives the jobs: purged jobs leave the runs, their snapshots and changes.
    await db.execute(sql`delete from jobs where account_id = ${acct.accountId}`);
    const kept = await listHistory(db, acct.accountId, s.id, { limit: 10 });
    expect(kept.runs.every((x) => x.jobId === null && x.changes !== undefined)).toBe(true);
    expect(kept.runs[1]!.changes!.new.length).toBeGreaterThan(0);
    expect(await ledgerMismatches()).toEqual([]);
  });

  test("the URL audit of a page that got worse: scores fall, one audit.regressed; put right, fixed", async () => {
    const db = handle.db;
    const acct = await createTestAccount(db, { credits: 1000, domains: ["acme.com"] });
    await createEndpoint(db, acct.accountId, {
      url: receiver.url,
      events: ["audit.completed", "audit.regressed"],
    });
    const s = await createSchedule(db, acct.accountId, {
      tool: "audits",
      url: "https://acme.com/landing",
      ...daily,
    });
    const r = runner({ realAudits: true });
    for (const page of ["good.html", "bad.html", "good.html"]) {
      auditedPage = page;
      await makeDue(s.id);
      await passAll(r);
    }
    const { runs } = await listHistory(db, acct.accountId, s.id, { limit: 10 });
    expect(runs.map((x) => x.status)).toEqual(["completed", "completed", "completed"]);
    const [third, second, first] = runs;
    expect(first!.scores!.score).toBeGreaterThan(second!.scores!.score!);
    expect(second!.changes!.scoreDelta.score).toBe(second!.scores!.score! - first!.scores!.score!);
    // The rule, checked from the stored changes: a score down 5 or more, or a new error, and said in words.
    const fell = Object.entries(second!.changes!.scoreDelta).filter(([, d]) => d <= -5);
    const newErrors = second!.changes!.new.filter((c) => c.severity === "error");
    expect(fell.length + newErrors.length).toBeGreaterThan(0);
    expect([...second!.changes!.regressions].sort()).toEqual(
      [
        ...fell.map(([name, d]) => `The ${name} score fell by ${-d} points.`),
        ...newErrors.map((c) => `New issue: ${c.title}.`),
      ].sort(),
    );
    expect(second!.regressed).toBe(true);
    expect(third!.regressed).toBe(false);
    expect(third!.changes!.fixed.map((c) => c.id).sort()).toEqual(
      second!.changes!.new.map((c) => c.id).sort(),
    );
    expect(third!.changes!.scoreDelta.score).toBe(-second!.changes!.scoreDelta.score!);
    const events = (await eventsOf(acct.accountId)).filter((e) => e.type.startsWith("audit."));
    expect(events.map((e) => e.type)).toEqual(["audit.completed", "audit.regressed", "audit.completed"]);
    expect(await balanceOf(db, acct.accountId)).toBe(1000 - 3 * 50);
    expect(await ledgerMismatches()).toEqual([]);
  });

  test("removing the domain pauses its schedules; they resume once it is registered again", async () => {
    const db = handle.db;
    const acct = await createTestAccount(db, { credits: 100, domains: ["acme.com"] });
    const s = await createSchedule(db, acct.accountId, {
      tool: "ai-access",
      url: "https://acme.com/",
      ...daily,
    });
    await removeDomain(db, acct.accountId, "acme.com");
    const [paused] = await db.select().from(auditSchedules).where(eq(auditSchedules.id, s.id));
    expect(paused).toMatchObject({ status: "paused", pauseReason: "domain_removed", nextRunAt: null });
    await expect(updateSchedule(db, acct.accountId, s.id, { status: "active" })).rejects.toMatchObject({
      code: "FORBIDDEN_SCOPE",
    });
    await registerDomain(db, acct.accountId, "acme.com");
    const resumed = await updateSchedule(db, acct.accountId, s.id, { status: "active" });
    expect(resumed).toMatchObject({ status: "active", pauseReason: null });
  });

  test("runs older than 13 months are purged by the runner's housekeeping", async () => {
    const db = handle.db;
    const acct = await createTestAccount(db, { credits: 100, domains: ["acme.com"] });
    const s = await createSchedule(db, acct.accountId, {
      tool: "ai-access",
      url: "https://acme.com/",
      ...daily,
    });
    await makeDue(s.id);
    await passAll(runner());
    await db.execute(
      sql`update audit_schedule_runs set expires_at = now() - interval '1 second' where schedule_id = ${s.id}`,
    );
    await runner().pass();
    expect(await db.select().from(auditScheduleRuns).where(eq(auditScheduleRuns.scheduleId, s.id))).toEqual(
      [],
    );
  });
});

describe("billing", () => {
  test("a failed job is refunded exactly once and fails its run", async () => {
    const db = handle.db;
    const acct = await createTestAccount(db, { credits: 100, domains: ["acme.com"] });
    const s = await createSchedule(db, acct.accountId, {
      tool: "audits",
      url: "https://acme.com/",
      ...daily,
    });
    await makeDue(s.id);
    const r = runner();
    await passAll(r);
    await r.pass();
    await closeFinishedRuns(db);
    const [run] = await db.select().from(auditScheduleRuns).where(eq(auditScheduleRuns.scheduleId, s.id));
    expect(run!.status).toBe("failed");
    expect(run!.creditsCharged).toBe(50);
    expect(run!.creditsRefunded).toBe(50);
    expect(run!.error?.code).toBe("FETCH_FAILED");
    expect(await balanceOf(db, acct.accountId)).toBe(100);
    const refunds = rowsOf(
      await db.execute(
        sql`select id from credit_ledger where account_id = ${acct.accountId} and type = 'refund'`,
      ),
    );
    expect(refunds).toHaveLength(1);
    expect(await ledgerMismatches()).toEqual([]);
    const notices = await db
      .select()
      .from(accountNotices)
      .where(eq(accountNotices.accountId, acct.accountId));
    expect(notices.some((n) => n.kind === "audit.run_failed" && n.message.includes("50 credits"))).toBe(true);
  });

  test("the monthly cap and an empty balance skip the run, with the reason, a notice, an event and an email", async () => {
    const db = handle.db;
    const acct = await createTestAccount(db, { credits: 12, domains: ["acme.com"] });
    await createEndpoint(db, acct.accountId, { url: receiver.url, events: ["audit.run_skipped"] });
    const capped = await createSchedule(db, acct.accountId, {
      tool: "ai-access",
      url: "https://acme.com/",
      ...daily,
      monthlyCreditCap: 5,
    });
    const r = runner();
    await makeDue(capped.id);
    await passAll(r);
    await makeDue(capped.id);
    await passAll(r);
    const capRuns = await listHistory(db, acct.accountId, capped.id, { limit: 10 });
    expect(capRuns.runs.map((x) => x.status)).toEqual(["skipped", "completed"]);
    expect(capRuns.runs[0]!.skipReason).toBe("monthly_cap");
    expect(await balanceOf(db, acct.accountId)).toBe(7);

    const other = await createSchedule(db, acct.accountId, {
      tool: "audits",
      url: "https://www.acme.com/",
      ...daily,
    });
    await makeDue(other.id);
    await passAll(r);
    const emptyRuns = await listHistory(db, acct.accountId, other.id, { limit: 10 });
    expect(emptyRuns.runs.map((x) => [x.status, x.skipReason, x.creditsCharged])).toEqual([
      ["skipped", "insufficient_credits", 0],
    ]);
    expect(await balanceOf(db, acct.accountId)).toBe(7);
    expect(await ledgerMismatches()).toEqual([]);

    const skipped = (await eventsOf(acct.accountId)).filter((e) => e.type === "audit.run_skipped");
    expect(skipped.map((e) => e.payload.data.reason)).toEqual(["monthly_cap", "insufficient_credits"]);
    expect(skipped[1]!.payload.data).toMatchObject({ required: 50, available: 7 });
    const notices = await db
      .select()
      .from(accountNotices)
      .where(eq(accountNotices.accountId, acct.accountId));
    expect(notices.filter((n) => n.kind === "audit.run_skipped")).toHaveLength(2);
    await vi.waitFor(
      () =>
        expect(smtp.mails.filter((m) => m.to.includes(acct.email) && /skipped/.test(m.subject))).toHaveLength(
          2,
        ),
      { timeout: 5000 },
    );

    // A run now the balance cannot cover is a 402 with nothing charged; the cap refuses with a 400.
    await expect(runScheduleNow(db, acct.accountId, other.id)).rejects.toMatchObject({
      code: "INSUFFICIENT_CREDITS",
    });
    await expect(runScheduleNow(db, acct.accountId, capped.id)).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: { reason: "monthly_cap" },
    });
    expect(await balanceOf(db, acct.accountId)).toBe(7);
  });
});
