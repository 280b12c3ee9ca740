import { afterAll, beforeAll, expect, test } from "vitest";
import type { Db, DbHandle } from "@/lib/db/client";
import { createJob } from "@/lib/jobs/create";
import { listJobs } from "@/lib/jobs/list";
import { createTestAccount } from "../accounts";
import { createTestDb } from "../db";
import { sleepTool } from "../jobs-helpers";
import { capturingDb, planOf } from "../support/query-plans";

// GET /jobs pages an account's jobs newest first: the page after a cursor must start in the index at the cursor,
// not walk every newer job and filter it out (an account creating jobs by the thousand keeps a week of them).
let handle: DbHandle;
let captured: { query: string; params: unknown[] }[] = [];
let logged: Db;

beforeAll(async () => {
  handle = await createTestDb();
  ({ db: logged, captured } = await capturingDb(handle));
});
afterAll(async () => handle?.close());

test("the jobs list walks (account, created_at, id) backward from the cursor, without sorting", async () => {
  const acct = await createTestAccount(handle.db, { credits: 1000 });
  for (let i = 0; i < 4; i++)
    await createJob(handle.db, { accountId: acct.accountId, tool: sleepTool as never, input: { ms: 0 } });
  const first = await listJobs(handle.db, acct.accountId, { limit: 2 });
  expect(first.nextCursor).not.toBeNull();

  captured.length = 0;
  const second = await listJobs(logged, acct.accountId, { limit: 2, cursor: first.nextCursor! });
  expect(second.jobs).toHaveLength(2);
  const statement = captured.filter((c) => /from "jobs"/.test(c.query));
  expect(statement).toHaveLength(1);
  const plan = await planOf(handle, statement[0]!.query, statement[0]!.params);
  expect(plan).toMatch(/Index Scan Backward using jobs_account_created_idx/);
  expect(plan).toMatch(/Index Cond: .*created_at, id\) < /);
  expect(plan).not.toMatch(/Sort/);
});
