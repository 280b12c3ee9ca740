import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect } from "vitest";
import { DEMO_DOMAIN } from "@/lib/accounts/demo";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { ensureDemoWorkspace } from "@/lib/tracking/demo/demo-workspace";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { getBotStats } from "@/lib/tracking/reports/stats";
import { dbTest } from "@/test/support/fixtures";

const test = dbTest;
let handle: DbHandle;
let dir: string;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  dir = mkdtempSync(path.join(os.tmpdir(), "demo-traffic-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

const count = async () =>
  rowsOf<{ all: number; demo: number }>(
    await handle.db.execute(
      sql`select count(*)::int as all, count(*) filter (where a.is_demo)::int as demo
          from visits v join visit_agents a on a.id = v.agent_id`,
    ),
  )[0]!;

test("the demo account gets demo traffic once, flagged as demo data, with something to chart", async () => {
  const file = path.join(dir, "creds.json");
  const demo = await ensureDemoWorkspace(handle.db, file);
  const first = await count();
  expect(first.all).toBeGreaterThan(2000);
  expect(first.demo).toBe(first.all);

  const stats = await getBotStats(handle.db, demo.accountId, DEMO_DOMAIN);
  expect(stats.totalVisits).toBeGreaterThan(1500);
  expect(stats.aiBotVisits).toBeGreaterThan(0);
  expect(stats.topBots.length).toBe(10);
  expect(stats.topPages.length).toBeGreaterThan(5);
  const citations = await getCitations(handle.db, demo.accountId, {
    domain: DEMO_DOMAIN,
    days: 30,
    limit: 50,
  });
  expect(citations.total).toBeGreaterThan(0);
  expect(citations.citations.length).toBe(50);

  await ensureDemoWorkspace(handle.db, file);
  expect(await count()).toEqual(first);
});
