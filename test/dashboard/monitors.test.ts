import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { ForbiddenError, FormError } from "@/lib/dashboard/errors";
import type { Actor } from "@/lib/dashboard/members";
import {
  createMonitorAs,
  deleteMonitorAs,
  getMonitorAs,
  monitorFormOptions,
  monitorNotices,
  monitorReportCsv,
  monitorReportPage,
  monitorsOverview,
  pauseMonitorAs,
  resumeMonitorAs,
  runMonitorNowAs,
  suggestPromptsAs,
  updateMonitorAs,
} from "@/lib/dashboard/monitors";
import type { DbHandle } from "@/lib/db/client";
import { accountNotices } from "@/lib/db/schema";
import { estimateCost } from "@/lib/monitors/estimate";
import { balanceOf, createTestAccount } from "@/test/accounts";
import { createRoutedFetch } from "@/test/fakes/ai/engines";
import { brandAnswers, type MonitorEngines, startMonitorEngines } from "@/test/fakes/monitor-engines";
import { dbTest } from "@/test/support/fixtures";
import { answerAll } from "../monitors/helpers";

const test = dbTest;
let handle: DbHandle;
let fakes: MonitorEngines;
let site: { url: string; close(): Promise<void> };
let owner: Actor;
let member: Actor;
let poor: Actor;

const schedule = { every: "day" as const, hour: 9, timeZone: "Europe/Paris" };
const actorOf = (accountId: string, role: Actor["role"]): Actor => ({
  userId: "00000000-0000-4000-8000-000000000000",
  accountId,
  accountName: "Test",
  role,
});

/** The FormError a call throws (fails the test when it resolves or throws anything else). */
async function formError(p: Promise<unknown>): Promise<FormError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FormError);
  return err as FormError;
}

/** A roaster's home page with the questions and phrases the suggestions read. */
async function startHomePage() {
  const html = `<!doctype html><html lang="en"><head><title>Acme Roasters: fresh coffee beans from Lyon</title>
<meta name="description" content="Acme Roasters roasts specialty coffee beans in Lyon and ships fresh coffee beans across France."></head>
<body><h1>Fresh coffee beans roasted in Lyon</h1>
<p>Acme Roasters roasts specialty coffee beans every week. Our fresh coffee beans ship the day they are roasted.</p>
<h2>How long do fresh coffee beans stay fresh?</h2><p>Fresh coffee beans keep their taste for about a month.</p>
<h2>Which grind suits a pour-over coffee maker?</h2><p>A medium-fine grind suits a pour-over coffee maker.</p>
<h2>Specialty coffee subscriptions</h2><p>Our specialty coffee subscription brings fresh coffee beans every week.</p>
</body></html>`;
  const server = http.createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

beforeAll(async () => {
  fakes = await startMonitorEngines({
    answer: brandAnswers({
      brand: "Acme Roasters",
      domain: "acme.com",
      competitor: "beanco.com",
      mentionRate: 0.6,
      citeRate: 0.5,
    }),
    seed: 11,
  });
  site = await startHomePage();
});
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  const rich = await createTestAccount(handle.db, { credits: 5000, domains: ["acme.com"] });
  const broke = await createTestAccount(handle.db, { credits: 10, domains: ["acme.com"] });
  owner = actorOf(rich.accountId, "owner");
  member = actorOf(rich.accountId, "member");
  poor = actorOf(broke.accountId, "admin");
});

afterAll(async () => {
  await fakes?.close();
  await site?.close();
});

const valid = {
  domain: "acme.com",
  prompts: ["best coffee roaster in Lyon", "where to buy fresh coffee beans"],
  competitors: ["beanco.com"],
  brandNames: ["Acme Roasters"],
  samples: 2,
  schedule,
};

describe("roles", () => {
  test("a member reads but every change is refused, nothing stored or charged", async () => {
    const db = handle.db;
    await expect(createMonitorAs(db, member, valid, fakes.env)).rejects.toBeInstanceOf(ForbiddenError);
    const m = await createMonitorAs(db, owner, { ...valid, name: "Roles" }, fakes.env);
    const before = await balanceOf(db, owner.accountId);
    for (const call of [
      () => pauseMonitorAs(db, member, m.id),
      () => resumeMonitorAs(db, member, m.id),
      () => runMonitorNowAs(db, member, m.id),
      () => deleteMonitorAs(db, member, m.id),
      () => updateMonitorAs(db, member, m.id, { samples: 3 }, fakes.env),
      () => suggestPromptsAs(db, member, "acme.com"),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(ForbiddenError);
    }
    expect(await balanceOf(db, owner.accountId)).toBe(before);
    // Reading stays open to members.
    expect((await getMonitorAs(db, member, m.id)).status).toBe("active");
    expect((await monitorsOverview(db, member)).map((x) => x.id)).toContain(m.id);
    await deleteMonitorAs(db, owner, m.id);
  });
});

describe("validation is a form error naming the field", () => {
  test.each([
    [{ ...valid, samples: 11 }, "samples"],
    [{ ...valid, prompts: [] }, "prompts"],
    [{ ...valid, prompts: ["same prompt here", "Same prompt here"] }, "prompts"],
    [{ ...valid, competitors: ["a.com", "b.com", "c.com", "d.com", "e.com", "f.com"] }, "competitors"],
    [{ ...valid, schedule: { ...schedule, every: "week" } }, "schedule.weekday"],
    [{ ...valid, schedule: { ...schedule, hour: 24 } }, "schedule.hour"],
    [{ ...valid, schedule: { ...schedule, timeZone: "Mars/Olympus" } }, "schedule.timeZone"],
    [{ ...valid, monthlyCreditCap: -5 }, "monthlyCreditCap"],
    [{ ...valid, engines: ["Bing"] }, "engines.0"],
    [{ ...valid, extra: true }, undefined],
  ])("%j → %s", async (input, field) => {
    const err = await formError(createMonitorAs(handle.db, owner, input, fakes.env));
    expect(err.field).toBe(field);
    expect(err.message.length).toBeGreaterThan(3);
  });

  test("a domain not on the account, or an engine not configured here, is refused without env names", async () => {
    const other = await formError(
      createMonitorAs(handle.db, owner, { ...valid, domain: "other.com" }, fakes.env),
    );
    expect(other.message).toMatch(/other\.com/);
    const onlyOpenAi = {
      OPENAI_API_KEY: fakes.env.OPENAI_API_KEY,
      OPENAI_BASE_URL: fakes.env.OPENAI_BASE_URL,
    };
    const engines = await formError(
      createMonitorAs(handle.db, owner, { ...valid, engines: ["Claude"] }, onlyOpenAi),
    );
    expect(engines.field).toBe("engines");
    expect(engines.message).toMatch(/Claude is not available/);
    expect(engines.message).not.toMatch(/API_KEY|_URL/);
    expect((await monitorFormOptions(handle.db, owner, onlyOpenAi)).engines).toEqual(["ChatGPT"]);
  });

  test("an unknown monitor and a bad period are form errors, not 500s", async () => {
    const missing = await formError(
      runMonitorNowAs(handle.db, owner, "00000000-0000-4000-8000-00000000abcd"),
    );
    expect(missing.message).toMatch(/not found/i);
    const m = await createMonitorAs(handle.db, owner, { ...valid, name: "Periods" }, fakes.env);
    const bad = await formError(monitorReportPage(handle.db, owner, m.id, { from: "yesterday" }));
    expect(bad.field).toBe("from");
    const reversed = await formError(
      monitorReportPage(handle.db, owner, m.id, { from: "2026-02-01", to: "2026-01-01" }),
    );
    expect(reversed.message).toMatch(/before/);
  });
});

describe("a monitor's life in the dashboard", () => {
  test("create with the estimate, run now, read the report, series, runs, notices and CSV", async () => {
    const db = handle.db;
    const m = await createMonitorAs(db, owner, { ...valid, name: "Lyon" }, fakes.env);
    // The form computes the estimate with the same function the service answers with.
    expect(m.estimate).toEqual(
      estimateCost({ prompts: valid.prompts, engines: m.engines, samples: 2, every: "day" }),
    );
    expect(m.estimate).toMatchObject({ answersPerRun: 16, creditsPerRun: 80, creditsPerMonth: 2400 });
    let [row] = (await monitorsOverview(db, owner)).filter((x) => x.id === m.id);
    expect(row?.lastRun).toBeNull();

    const before = await balanceOf(db, owner.accountId);
    const run = await runMonitorNowAs(db, owner, m.id);
    expect(run.creditsCharged).toBe(80);
    expect(await balanceOf(db, owner.accountId)).toBe(before - 80);
    await answerAll(db, { ...fakes.env }, fakes.fetch);
    [row] = (await monitorsOverview(db, owner)).filter((x) => x.id === m.id);
    expect(row?.lastRun).toMatchObject({ id: run.id, status: "completed", creditsCharged: 80 });

    const page = await monitorReportPage(db, member, m.id, { compare: "previous" });
    expect(page.report.total.answers).toBe(16);
    expect(page.report.total.change).toBeDefined();
    expect(page.series).toHaveLength(1);
    const point = page.series[0]!;
    expect(point.runId).toBe(run.id);
    expect(point.answers).toBe(16);
    // The run's share of voice is the report's: a single run in the period.
    expect(point.shareOfVoice).toEqual(page.report.total.shareOfVoice);
    expect(point.mentionRate).toEqual(page.report.total.mentionRate);
    expect(page.runs[0]?.answers).toHaveLength(16);

    const { csv, filename } = await monitorReportCsv(db, member, m.id, {});
    expect(filename).toMatch(/^monitor-acme\.com-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.split("\r\n")[0]).toBe(
      "scope,engine,prompt,competitor,metric,value,n,low,high,delta,significant",
    );
    expect(csv).toMatch(/\r\ntotal,.*,shareOfVoice,/);

    // Notices about this monitor (named by its label) are picked out of the account's.
    await db.insert(accountNotices).values([
      {
        accountId: owner.accountId,
        kind: "visibility.changed",
        message: 'The mention rate of "Lyon" changed.',
      },
      {
        accountId: owner.accountId,
        kind: "visibility.changed",
        message: 'The mention rate of "Paris" changed.',
      },
      { accountId: owner.accountId, kind: "webhook_disabled", message: 'Endpoint "Lyon" disabled.' },
    ]);
    const notices = await monitorNotices(db, owner, { name: "Lyon", domain: "acme.com" });
    expect(notices.map((n) => n.message)).toEqual(['The mention rate of "Lyon" changed.']);

    // Pause, resume, edit and delete through the same layer.
    expect((await pauseMonitorAs(db, owner, m.id)).status).toBe("paused");
    expect((await resumeMonitorAs(db, owner, m.id)).status).toBe("active");
    const edited = await updateMonitorAs(db, owner, m.id, { samples: 3, monthlyCreditCap: 1000 }, fakes.env);
    expect(edited.estimate.creditsPerRun).toBe(120);
    const badEdit = await formError(updateMonitorAs(db, owner, m.id, { samples: 0 }, fakes.env));
    expect(badEdit.field).toBe("samples");
    await deleteMonitorAs(db, owner, m.id);
    await formError(getMonitorAs(db, owner, m.id));
  });

  test("a run the balance cannot cover is a form error and charges nothing", async () => {
    const db = handle.db;
    const m = await createMonitorAs(db, poor, valid, fakes.env);
    const err = await formError(runMonitorNowAs(db, poor, m.id));
    expect(err.message).toMatch(/costs 80 credits; the balance is 10/);
    expect(await balanceOf(db, poor.accountId)).toBe(10);
  });

  test("suggested prompts come from the site itself; an unreadable site is a form error", async () => {
    const fetch = createRoutedFetch({ "acme.com": site.url });
    const s = await suggestPromptsAs(handle.db, owner, "acme.com", { fetch });
    expect(s.domain).toBe("acme.com");
    expect(s.prompts.map((p) => p.prompt)).toContain("How long do fresh coffee beans stay fresh?");
    expect(s.prompts.some((p) => p.source === "keyphrase")).toBe(true);
    expect(s.prompts.length).toBeLessThanOrEqual(10);
    const err = await formError(
      suggestPromptsAs(handle.db, owner, "acme.com", { fetch: createRoutedFetch({}) }),
    );
    expect(err.field).toBe("domain");
    expect(err.message).toMatch(/could not be read/);
  });
});
