import { expect } from "vitest";
import { createJob } from "@/lib/jobs/create";
import { listJobs } from "@/lib/jobs/list";
import { createTestAccount } from "../accounts";
import { sleepTool } from "../jobs-helpers";
import { type PlanDb, planTest } from "../support/query-plans";

// GET /jobs pages an account's jobs newest first: the page after a cursor must start in the index at the cursor,
// not walk every newer job and filter it out (an account creating jobs by the thousand keeps a week of them).
const test = planTest;
let plans: PlanDb;
test.beforeAll(({ plans: _plans }) => {
  plans = _plans;
});

test("the jobs list walks (account, created_at, id) backward from the cursor, without sorting", async () => {
  const acct = await createTestAccount(plans.db, { credits: 1000 });
  for (let i = 0; i < 4; i++)
    await createJob(plans.db, { accountId: acct.accountId, tool: sleepTool as never, input: { ms: 0 } });
  const first = await listJobs(plans.db, acct.accountId, { limit: 2 });
  expect(first.nextCursor).not.toBeNull();

  const plan = await plans.planOf(async (db) => {
    const second = await listJobs(db, acct.accountId, { limit: 2, cursor: first.nextCursor! });
    expect(second.jobs).toHaveLength(2);
  }, /from "jobs"/);
  expect(plan).toMatch(/Index Scan Backward using jobs_account_created_idx/);
  expect(plan).toMatch(/Index Cond: .*created_at, id\) < /);
  expect(plan).not.toMatch(/Sort/);
});
