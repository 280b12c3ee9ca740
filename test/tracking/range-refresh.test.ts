// The operators' IP range lists kept current at run time: fetched from local stand-ins of the operators' servers
// (their real paths and formats), stored once per day and list, claimed so two runners never fetch one together,
// and used by ingest over the committed seeds: against a seed an address outside it proves nothing, against a
// fetched list it is spoofed.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeEach, expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import { signUp } from "@/lib/dashboard/signup";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { botIpRangeFeeds, visits } from "@/lib/db/schema";
import { createGuardedFetch } from "@/lib/fetch";
import { JobRunner } from "@/lib/jobs/runner";
import { RANGE_REFRESH_MS, refreshStoredRangeFeeds } from "@/lib/tracking/catalog/ip-ranges/stored-feeds";
import { installRangeFeeds } from "@/lib/tracking/catalog/ip-ranges/verify";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { type FakeBotRanges, startFakeBotRanges } from "@/test/fakes/bot-ranges";
import { dbTest } from "@/test/support/fixtures";
import { committedListsAsWhole } from "@/test/support/range-feeds";

const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)";
const IN_SEED = "20.171.206.10";
/** In a range OpenAI publishes that the committed seed lacks. */
const NEW_RANGE = "13.65.138.9";
const ELSEWHERE = "8.8.8.8";

const test = dbTest;
let db: Db;
let accountId: string;
let domainId: string;
let operators: FakeBotRanges;
const fetch = createGuardedFetch({ allowPrivateTargets: "loopback" });
const config = () => ({ baseUrl: operators.url });

test.beforeAll(async ({ handle }) => {
  db = handle.db;
  const { user } = await signUp(db, {
    email: `ranges-${process.pid}@example.com`,
    password: "correct horse battery",
  });
  const { getActor } = await import("@/lib/dashboard/members");
  accountId = (await getActor(db, user.id))!.accountId;
  domainId = (await registerDomain(db, accountId, "ranges.example.com")).id;
  operators = await startFakeBotRanges();
});

beforeEach(() => {
  const lists = committedListsAsWhole() as Record<string, { prefixes: object[] }>;
  lists["openai-gptbot"] = {
    ...lists["openai-gptbot"],
    prefixes: [...(lists["openai-gptbot"]?.prefixes ?? []), { ipv4Prefix: "13.65.138.0/25" }],
  };
  // An operator that publishes a list with nothing in it.
  lists["commoncrawl-ccbot"] = { prefixes: [] };
  operators.lists = lists;
  operators.requests = {};
});

afterAll(async () => {
  installRangeFeeds({});
  await operators?.close();
});

async function ingestFrom(path: string, ip: string) {
  await ingestEvents(db, accountId, {
    events: [
      { domain: "ranges.example.com", path, userAgent: GPTBOT, ip, timestamp: new Date().toISOString() },
    ],
  });
  return verdictsOf(path).then((all) => all.join("; "));
}

async function verdictsOf(path: string) {
  const rows = await db
    .select({ verification: visits.verification, method: visits.verificationMethod })
    .from(visits)
    .where(and(eq(visits.domainId, domainId), eq(visits.path, path)));
  return rows.map((row) => `${row.verification} ${row.method}`);
}

const stored = async () =>
  Object.fromEntries(
    (await db.select().from(botIpRangeFeeds)).map((r) => [
      r.source,
      { prefixes: (r.feed as { prefixes?: unknown[] } | null)?.prefixes?.length ?? 0, error: r.lastError },
    ]),
  );

test("ingest verifies against the lists fetched from the operators once they are stored", async () => {
  // The committed seeds: an address they hold is verified, one outside them proves nothing.
  expect(await ingestFrom("/seed-in", IN_SEED)).toBe("verified ip");
  expect(await ingestFrom("/seed-new", NEW_RANGE)).toBe("unknown null");
  expect(await ingestFrom("/seed-out", ELSEWHERE)).toBe("unknown null");

  const outcomes = await refreshStoredRangeFeeds(db, { config: config(), fetch });
  // Every list was asked for at its operator's path; the ones with no prefix keep nothing, with the reason.
  expect(outcomes).toHaveLength(23);
  expect(Object.keys(operators.requests)).toHaveLength(23);
  expect(outcomes.find((o) => o.key === "openai-gptbot")).toMatchObject({ ok: true, prefixes: 22 });
  // Amazon's list is read out of its web page.
  expect(outcomes.find((o) => o.key === "amazon-amazonbot")).toMatchObject({ ok: true, prefixes: 524 });
  expect(outcomes.find((o) => o.key === "commoncrawl-ccbot")).toEqual({
    key: "commoncrawl-ccbot",
    ok: false,
    error: "feed holds no usable prefix",
  });
  const lists = await stored();
  expect(lists["openai-gptbot"]).toEqual({ prefixes: 22, error: null });
  expect(lists["commoncrawl-ccbot"]).toEqual({ prefixes: 0, error: "feed holds no usable prefix" });

  // The next batch reads them: OpenAI's whole list proves the new range and disproves an address outside it.
  expect(await ingestFrom("/fetched-in", IN_SEED)).toBe("verified ip");
  expect(await ingestFrom("/fetched-new", NEW_RANGE)).toBe("verified ip");
  expect(await ingestFrom("/fetched-out", ELSEWHERE)).toBe("unverified ip");
  // Visits stored before keep their verdicts.
  expect(await verdictsOf("/seed-out")).toEqual(["unknown null"]);
});

test("a list is fetched once a day; a failed fetch keeps the list fetched before, with the reason", async () => {
  const now = Date.now();
  // Fetched by the test before: nothing is due yet.
  expect(await refreshStoredRangeFeeds(db, { config: config(), fetch, now: () => new Date(now) })).toEqual(
    [],
  );
  expect(operators.requests).toEqual({});

  operators.lists["openai-gptbot"] = 503;
  operators.lists["bing-bingbot"] = { creationTime: "x", prefixes: [{ ipv4Prefix: "157.55.39.0/24" }] };
  const later = new Date(now + RANGE_REFRESH_MS + 60_000);
  const outcomes = await refreshStoredRangeFeeds(db, { config: config(), fetch, now: () => later });
  expect(outcomes.find((o) => o.key === "openai-gptbot")).toEqual({
    key: "openai-gptbot",
    ok: false,
    error: "HTTP 503",
  });
  const lists = await stored();
  expect(lists["openai-gptbot"]).toEqual({ prefixes: 22, error: "HTTP 503" });
  expect(lists["bing-bingbot"]).toEqual({ prefixes: 1, error: null });
  // OpenAI's list fetched before still decides.
  expect(await ingestFrom("/after-failure", NEW_RANGE)).toBe("verified ip");
});

test("runners sharing the database fetch each due list once", async () => {
  await db.execute(sql`update bot_ip_range_feeds set attempted_at = attempted_at - interval '3 days'`);
  const results = await Promise.all(
    [1, 2, 3].map(() => refreshStoredRangeFeeds(db, { config: config(), fetch })),
  );
  expect(results.flat()).toHaveLength(23);
  expect(Object.values(operators.requests).every((n) => n === 1)).toBe(true);
  expect(Object.keys(operators.requests)).toHaveLength(23);
});

test("the job runner refreshes the lists when TRACKING_RANGES_REFRESH allows it", async () => {
  await db.execute(sql`update bot_ip_range_feeds set attempted_at = attempted_at - interval '3 days'`);
  const options = { concurrency: 1, leaseSeconds: 30, queueTimeoutSeconds: 600, pollMs: 60_000 };
  const saved = process.env.ALLOW_PRIVATE_TARGETS;
  process.env.ALLOW_PRIVATE_TARGETS = "loopback";
  try {
    const off = new JobRunner(db, options, undefined, { BOT_RANGES_BASE_URL: operators.url });
    await off.pass();
    await off.stop();
    expect(operators.requests).toEqual({});

    const on = new JobRunner(db, options, undefined, {
      TRACKING_RANGES_REFRESH: "on",
      BOT_RANGES_BASE_URL: operators.url,
    });
    await on.pass();
    await on.stop();
    expect(Object.keys(operators.requests)).toHaveLength(23);
    const [newest] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from bot_ip_range_feeds where attempted_at > now() - interval '1 minute'`,
      ),
    );
    expect(newest?.n).toBe(23);
  } finally {
    if (saved === undefined) delete process.env.ALLOW_PRIVATE_TARGETS;
    else process.env.ALLOW_PRIVATE_TARGETS = saved;
  }
});
