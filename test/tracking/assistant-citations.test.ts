// Every user-triggered AI assistant's fetch is a citation under its own name: stored, rolled up by that name,
// and listed by GET /citations beside the four engines.
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import { signUp } from "@/lib/dashboard/signup";
import type { Db, DbHandle } from "@/lib/db/client";
import { trackingDailyCitations } from "@/lib/db/schema";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { dbTest } from "@/test/support/fixtures";

const HOST = "assistants.example.com";
const test = dbTest;
let handle: DbHandle;
let db: Db;
let accountId: string;
let domainId: string;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
  const { user } = await signUp(db, {
    email: `assist-${process.pid}@example.com`,
    password: "correct horse battery",
  });
  const { getActor } = await import("@/lib/dashboard/members");
  accountId = (await getActor(db, user.id))!.accountId;
  domainId = (await registerDomain(db, accountId, HOST)).id;
});

test("assistants' fetches are cited under their own names, the four engines unchanged", async () => {
  const ua = (token: string) => `Mozilla/5.0 (compatible; ${token}/1.0; +https://example.org/bot)`;
  const fetches: [string, string][] = [
    ["ChatGPT-User", "/a"],
    ["MistralAI-User", "/a"],
    ["MistralAI-User", "/b"],
    ["Meta-ExternalFetcher", "/c"],
    ["DuckAssistBot", "/c"],
    ["Google-NotebookLM", "/d"],
    ["LinerBot", "/e"],
    ["amazon-QBusiness", "/f"],
    ["GPTBot", "/g"], // a crawler: no citation
  ];
  const timestamp = new Date().toISOString();
  const result = await ingestEvents(db, accountId, {
    events: fetches.map(([token, path]) => ({ domain: HOST, path, userAgent: ua(token), timestamp })),
  });
  expect(result.accepted).toBe(fetches.length);

  const rollup = await db
    .select({ engine: trackingDailyCitations.engine, n: trackingDailyCitations.citations })
    .from(trackingDailyCitations)
    .where(eq(trackingDailyCitations.domainId, domainId));
  expect(Object.fromEntries(rollup.map((r) => [r.engine, r.n]))).toEqual({
    ChatGPT: 1,
    Mistral: 2,
    "Meta AI": 1,
    DuckAssist: 1,
    NotebookLM: 1,
    Liner: 1,
    "Amazon Q Business": 1,
  });

  trackingReadCache.clear();
  const report = await getCitations(db, accountId, { domain: HOST, days: 7, limit: 50 });
  expect(report.total).toBe(8);
  expect(report.byBot[0]).toEqual({ bot: "Mistral", count: 2 });
  expect(report.byBot.map((b) => b.bot).sort()).toEqual(
    ["Amazon Q Business", "ChatGPT", "DuckAssist", "Liner", "Meta AI", "Mistral", "NotebookLM"].sort(),
  );
  expect(report.citations.map((c) => c.bot).sort()).toEqual(
    [
      "Amazon Q Business",
      "ChatGPT",
      "DuckAssist",
      "Liner",
      "Meta AI",
      "Mistral",
      "Mistral",
      "NotebookLM",
    ].sort(),
  );
});
