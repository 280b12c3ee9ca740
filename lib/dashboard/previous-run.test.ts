import { expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { createTestAccount } from "@/test/accounts";
import { dbTest } from "@/test/support/fixtures";
import { compareWithPreviousRun } from "./previous-run";

const test = dbTest;
let handle: DbHandle;
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
});

const audit = (score: number, statuses: Record<string, "pass" | "warn" | "fail">) => ({
  score,
  categories: [],
  checks: Object.entries(statuses).map(([id, status]) => ({
    id,
    status,
    title: id,
    severity: "warning",
    message: "",
  })),
});

test("compares a run with the account's previous completed run of the same tool and URL", async () => {
  const { db } = handle;
  const a = await createTestAccount(db);
  const b = await createTestAccount(db);
  const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m));
  const insert = async (
    accountId: string,
    url: string,
    minute: number,
    result: unknown,
    status = "completed",
  ) => {
    const [row] = await db
      .insert(jobs)
      .values({
        accountId,
        tool: "audits",
        status: status as "completed",
        input: { url },
        result,
        creditsCharged: 50,
        createdAt: at(minute),
      })
      .returning();
    return row!.id;
  };
  const first = await insert(
    a.accountId,
    "https://a.example/",
    1,
    audit(60, { "meta.title": "fail", "http.https": "pass" }),
  );
  await insert(a.accountId, "https://other.example/", 2, audit(10, { "meta.title": "pass" }));
  await insert(b.accountId, "https://a.example/", 3, audit(99, { "meta.title": "pass" }));
  await insert(a.accountId, "https://a.example/", 4, null, "failed");
  const second = await insert(
    a.accountId,
    "https://a.example/",
    5,
    audit(72, { "meta.title": "pass", "http.https": "fail" }),
  );

  const diff = await compareWithPreviousRun(db, a.accountId, second);
  expect(diff?.previous?.jobId).toBe(first);
  expect(diff?.comparison?.fixed.map((c) => c.id)).toEqual(["meta.title"]);
  expect(diff?.comparison?.new.map((c) => c.id)).toEqual(["http.https"]);
  expect(diff?.comparison?.headlineDelta).toBe(12);

  const none = await compareWithPreviousRun(db, a.accountId, first);
  expect(none).toMatchObject({ previous: null, comparison: null });
  expect(none?.reason).toMatch(/No earlier completed run/);
  // Another account's job is as absent as an unknown one.
  expect(await compareWithPreviousRun(db, b.accountId, second)).toBeNull();
});
