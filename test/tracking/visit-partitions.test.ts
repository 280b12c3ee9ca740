// The raw visits' months: the migration that partitions the visits keeps every stored visit, the runner creates the
// months ahead (idempotent, two processes at once), a visit whose month has no partition yet is kept (the default
// partition) and moves into its month when that is created, and the retention drops whole expired months only,
// keeping the rollups and citations.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, inject } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { Db, DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import type { NewVisit } from "@/lib/db/schema";
import { JobRunner } from "@/lib/jobs/runner";
import { runnerOptionsFromEnv } from "@/lib/jobs/runner-options";
import { eventKey, type TrackingEvent } from "@/lib/tracking/ingest/event-schema";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { agentKey } from "@/lib/tracking/ingest/visit-agents";
import {
  dropExpiredVisitPartitions,
  ensureVisitPartitions,
  monthsToKeepReady,
  partitionName,
  rawRetentionMonths,
} from "@/lib/tracking/raw-visits/partitions";
import { dbTest as test } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import { withDatabase } from "../global-setup";
import { UA } from "./helpers";

let handle: DbHandle;
test.beforeAll(({ handle: fileDb }) => {
  handle = fileDb;
});

/** The visits table's partitions: name and bounds, oldest first (the default partition last). */
async function partitions(db: Db): Promise<{ name: string; bound: string }[]> {
  return rowsOf<{ name: string; bound: string }>(
    await db.execute(sql`
      select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'visits'::regclass order by c.relname = 'visits_default', c.relname`),
  );
}

/** Where each visit of a domain is stored (its partition), by path. */
async function placement(db: Db, domainId: string): Promise<Record<string, string>> {
  const rows = rowsOf<{ path: string; part: string }>(
    await db.execute(
      sql`select path, tableoid::regclass::text as part from visits where domain_id = ${domainId} order by path`,
    ),
  );
  return Object.fromEntries(rows.map((r) => [r.path, r.part]));
}

/** Demo visits, with a user agent outside ASCII (its key hashes its UTF-8 bytes in SQL and in ingest alike). */
function demoRows(domainId: string): NewVisit[] {
  return ["Mozilla/5.0 (compatible; Bingbot/2.0; +http://www.bing.com/bingbot.htm) café ✓", UA.googlebot].map(
    (userAgent, i) =>
      prepareVisit(
        domainId,
        { occurredAt: new Date(Date.now() - i * 60_000), path: `/demo-${i}`, userAgent },
        `demo:${i}`,
        { isDemo: true },
      )!,
  );
}

/**
 * Stores visits in the layout the visits table had before migrations 0034 and 0036 (every field in the visit's
 * row), as the service stored them then; the rollups are not the migrations' concern.
 */
async function insertEarlierLayout(db: Db, rows: NewVisit[]): Promise<void> {
  const json = rows.map((r) => ({
    domain_id: r.domainId,
    occurred_at: (r.occurredAt as Date).toISOString(),
    path: r.path,
    user_agent: r.userAgent,
    ip: r.ip ?? null,
    referrer: r.referrer ?? null,
    status: r.status ?? null,
    bot_name: r.botName ?? null,
    bot_purpose: r.botPurpose ?? null,
    is_ai_bot: r.isAiBot ?? false,
    verification: r.verification,
    verification_method: r.verificationMethod ?? null,
    citation_engine: r.citationEngine ?? null,
    citation_reason: r.citationReason ?? null,
    event_key: r.eventKey,
    is_demo: r.isDemo ?? false,
  }));
  await db.execute(sql`
    insert into visits (domain_id, occurred_at, path, user_agent, ip, referrer, status, bot_name, bot_purpose,
                        is_ai_bot, verification, verification_method, citation_engine, citation_reason, event_key,
                        is_demo)
    select * from jsonb_to_recordset(${JSON.stringify(json)}::jsonb) as x(domain_id uuid, occurred_at timestamptz,
      path text, user_agent text, ip text, referrer text, status int, bot_name text, bot_purpose text,
      is_ai_bot boolean, verification text, verification_method text, citation_engine text, citation_reason text,
      event_key text, is_demo boolean)`);
}

/** A bot visit (GPTBot, an AI crawl) and a citation (a person ChatGPT referred) of `domainId` at `at`. */
function visitsAt(domainId: string, at: string, tag: string): NewVisit[] {
  return [
    prepareVisit(
      domainId,
      { occurredAt: new Date(at), path: `/${tag}-bot`, userAgent: UA.gptbot },
      `id:${tag}-b`,
    ),
    prepareVisit(
      domainId,
      {
        occurredAt: new Date(at),
        path: `/${tag}-cited`,
        userAgent: UA.chrome,
        referrer: "https://chatgpt.com/",
      },
      `id:${tag}-c`,
    ),
  ].filter((v) => v !== null);
}

async function newDomain(hostname: string) {
  const acct = await createTestAccount(handle.db);
  return registerDomain(handle.db, acct.accountId, hostname);
}

describe("the months ahead", () => {
  test("the months from the oldest accepted event's through two after this one must have a partition", () => {
    const months = monthsToKeepReady(new Date("2026-11-28T20:00:00Z"), 13).map(partitionName);
    expect(months).toEqual([
      "visits_2026_08",
      "visits_2026_09",
      "visits_2026_10",
      "visits_2026_11",
      "visits_2026_12",
      "visits_2027_01",
    ]);
    // A retention shorter than the accepted age: no month is created only to be dropped.
    expect(monthsToKeepReady(new Date("2026-11-28T20:00:00Z"), 1).map(partitionName)).toEqual([
      "visits_2026_10",
      "visits_2026_11",
      "visits_2026_12",
      "visits_2027_01",
    ]);
  });

  test("the retention is a whole number of months, 13 when unset", () => {
    expect(rawRetentionMonths({})).toBe(13);
    expect(rawRetentionMonths({ TRACKING_RAW_RETENTION_MONTHS: "24" })).toBe(24);
    for (const bad of ["0", "-3", "1.5", "twelve"]) {
      expect(() => rawRetentionMonths({ TRACKING_RAW_RETENTION_MONTHS: bad })).toThrow(
        /TRACKING_RAW_RETENTION_MONTHS/,
      );
    }
    // A runner with a retention it cannot use refuses to start, rather than keep visits forever or drop them.
    expect(
      () =>
        new JobRunner(handle.db, runnerOptionsFromEnv({}), undefined, { TRACKING_RAW_RETENTION_MONTHS: "0" }),
    ).toThrow(/TRACKING_RAW_RETENTION_MONTHS/);
  });

  test("created ahead once, named by month with their indexes named after the table's, by two processes at once", async () => {
    const now = new Date("2031-05-15T12:00:00Z");
    const [a, b] = await Promise.all([
      ensureVisitPartitions(handle.db, now, 13),
      ensureVisitPartitions(handle.db, now, 13),
    ]);
    const expected = ["2031_02", "2031_03", "2031_04", "2031_05", "2031_06", "2031_07"].map(
      (m) => `visits_${m}`,
    );
    // Each month created by one of them, none twice, none failed.
    expect([...a!, ...b!].sort()).toEqual(expected);
    expect(await ensureVisitPartitions(handle.db, now, 13)).toEqual([]);
    const parts = await partitions(handle.db);
    expect(parts.find((p) => p.name === "visits_2031_05")?.bound).toMatch(
      /^FOR VALUES FROM \('2031-05-01 00:00:00\+00'\) TO \('2031-06-01 00:00:00\+00'\)$/,
    );
    const indexes = rowsOf<{ indexname: string }>(
      await handle.db.execute(
        sql`select indexname from pg_indexes where tablename = 'visits_2031_05' order by indexname`,
      ),
    ).map((r) => r.indexname);
    expect(indexes).toEqual(["visits_2031_05_citations_idx", "visits_2031_05_pkey"]);
  });

  test("the runner's housekeeping creates a missing month", async () => {
    // The month after next, created by the migration when the test database was made, empty: dropped, then the
    // runner's pass makes it again.
    const ahead = partitionName(
      new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 2, 1)),
    );
    await handle.db.execute(sql.raw(`drop table ${ahead}`));
    expect((await partitions(handle.db)).map((p) => p.name)).not.toContain(ahead);
    const runner = new JobRunner(handle.db, runnerOptionsFromEnv({}), undefined, {});
    await runner.pass();
    expect((await partitions(handle.db)).map((p) => p.name)).toContain(ahead);
    await runner.stop();
  });
});

describe("a visit whose month has no partition", () => {
  test("is stored in the default partition, moves into its month when that is created, and stays one visit", async () => {
    const domain = await newDomain("early.example");
    const rows = visitsAt(domain.id, "2033-03-10T08:00:00Z", "early");
    expect(await recordVisits(handle.db, rows)).toBe(2);
    expect(Object.values(await placement(handle.db, domain.id))).toEqual([
      "visits_default",
      "visits_default",
    ]);

    expect(await ensureVisitPartitions(handle.db, new Date("2033-03-20T00:00:00Z"), 13)).toContain(
      "visits_2033_03",
    );
    expect(await placement(handle.db, domain.id)).toEqual({
      "/early-bot": "visits_2033_03",
      "/early-cited": "visits_2033_03",
    });
    // The same events again: their keys are found in the month they moved to.
    expect(await recordVisits(handle.db, visitsAt(domain.id, "2033-03-10T08:00:00Z", "early"))).toBe(0);
    const [count] = rowsOf<{ n: number }>(
      await handle.db.execute(sql`select count(*)::int as n from visits where domain_id = ${domain.id}`),
    );
    expect(count?.n).toBe(2);
  });
});

describe("a visit's key", () => {
  test("is its domain, time and event key: the same event again is a duplicate, an id sent at another time is not", async () => {
    const domain = await newDomain("keys.example");
    const at = new Date(Date.now() - 60_000);
    const visit = (id: string, when: Date, path = "/k") =>
      prepareVisit(domain.id, { occurredAt: when, path, userAgent: UA.gptbot }, `id:${id}`)!;
    // Sent twice in one batch: stored once, as first sent.
    expect(await recordVisits(handle.db, [visit("x", at), visit("x", at, "/k-again")])).toBe(1);
    expect(await recordVisits(handle.db, [visit("x", at, "/k-third")])).toBe(0);
    // The same id at another time is another visit (its key holds the time the visits are partitioned by).
    expect(await recordVisits(handle.db, [visit("x", new Date(at.getTime() + 1))])).toBe(1);
    const paths = rowsOf<{ path: string }>(
      await handle.db.execute(
        sql`select path from visits where domain_id = ${domain.id} order by occurred_at`,
      ),
    ).map((r) => r.path);
    expect(paths).toEqual(["/k", "/k"]);
  });
});

describe("the raw-visit retention", () => {
  test("drops whole months past the retention only, and keeps the rollups and citations", async () => {
    const domain = await newDomain("old.example");
    await ensureVisitPartitions(handle.db, new Date("2029-02-20T00:00:00Z"), 13);
    await recordVisits(handle.db, [
      ...visitsAt(domain.id, "2029-01-31T23:59:59Z", "jan"),
      ...visitsAt(domain.id, "2029-02-01T00:00:00Z", "feb"),
    ]);
    // And one in the default partition, in a month that never had one.
    await recordVisits(handle.db, visitsAt(domain.id, "2028-06-15T00:00:00Z", "jun"));
    const rollups = async () =>
      rowsOf<Record<string, number>>(
        await handle.db.execute(sql`select
          (select count(*)::int from tracking_daily_bots where domain_id = ${domain.id}) as bots,
          (select count(*)::int from tracking_page_counts where domain_id = ${domain.id}) as pages,
          (select count(*)::int from tracking_daily_citations where domain_id = ${domain.id}) as citations,
          (select count(*)::int from tracking_cited_pages where domain_id = ${domain.id}) as cited,
          (select count(*)::int from tracking_daily_pages where domain_id = ${domain.id}) as funnel,
          (select count(*)::int from tracking_daily_page_citations where domain_id = ${domain.id}) as funnel_cites`),
      )[0];
    const before = await rollups();
    expect(before).toEqual({ bots: 3, pages: 3, citations: 3, cited: 3, funnel: 3, funnel_cites: 3 });

    // 13 months before 15 March 2030 is 15 February 2029: January 2029 is wholly older and goes, February is not
    // (its visit of 1 February, older than the cutoff, stays with its month).
    const dropped = await dropExpiredVisitPartitions(handle.db, new Date("2030-03-15T00:00:00Z"), 13);
    expect(dropped).toContain("visits_2029_01");
    expect(dropped).not.toContain("visits_2029_02");
    expect(dropped.every((name) => name < "visits_2029_02")).toBe(true);
    const names = (await partitions(handle.db)).map((p) => p.name);
    expect(names).not.toContain("visits_2029_01");
    expect(names).toContain("visits_2029_02");
    expect(names).toContain("visits_default");
    expect(await placement(handle.db, domain.id)).toEqual({
      "/feb-bot": "visits_2029_02",
      "/feb-cited": "visits_2029_02",
    });
    expect(await rollups()).toEqual(before);
    // Run again (or by a second process): nothing more goes.
    expect(await dropExpiredVisitPartitions(handle.db, new Date("2030-03-15T00:00:00Z"), 13)).toEqual([]);
  });
});

describe("migrating a database with visits (0034 partitions them by month, 0036 stores their agents apart)", () => {
  /** A migrations folder holding the migrations before the partitioned visits. */
  function migrationsBefore(idx: number): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), "migrations-"));
    cpSync(path.join(process.cwd(), "drizzle"), dir, { recursive: true });
    const journalFile = path.join(dir, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { idx: number }[] };
    journal.entries = journal.entries.filter((e) => e.idx < idx);
    writeFileSync(journalFile, JSON.stringify(journal));
    return dir;
  }

  /** A fresh, empty database (not the template), and how to migrate it with a folder's migrations. */
  async function emptyDb(): Promise<{
    db: Db;
    migrate: (folder: string) => Promise<void>;
    close: () => Promise<void>;
  }> {
    const template = inject("dbTemplate");
    if (template.kind === "postgres") {
      const { default: postgres } = await import("postgres");
      const { drizzle } = await import("drizzle-orm/postgres-js");
      const { migrate } = await import("drizzle-orm/postgres-js/migrator");
      const name = `mig_${process.pid}_${Date.now()}`;
      const admin = postgres(template.url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const client = postgres(withDatabase(template.url, name), { max: 2, onnotice: () => {} });
      const db = drizzle(client) as unknown as Db;
      return {
        db,
        migrate: (folder) => migrate(db as never, { migrationsFolder: folder }),
        close: async () => {
          await client.end({ timeout: 5 });
          await admin.unsafe(`drop database if exists ${name} with (force)`);
          await admin.end();
        },
      };
    }
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const pg = await PGlite.create("memory://");
    const db = drizzle(pg) as unknown as Db;
    return {
      db,
      migrate: (folder) => migrate(db as never, { migrationsFolder: folder }),
      close: () => pg.close(),
    };
  }

  // Migrates a database from empty twice (to the migration before, then the rest): longer than a test's default time
  // on a busy machine.
  test("every visit is kept, in its month's partition, with its key and fields; the keys still dedupe", async () => {
    const folder = migrationsBefore(34);
    const fresh = await emptyDb();
    try {
      await fresh.migrate(folder);
      const { db } = fresh;
      await createTestAccount(db, { domains: ["moved.example"] });
      const [domain] = rowsOf<{ id: string }>(
        await db.execute(sql`select id from domains where hostname = 'moved.example'`),
      );
      const now = Date.now();
      const rows = [
        // This month and the two before, a year ago, and an old log line from 1999 (kept, in the default partition).
        ...visitsAt(domain!.id, new Date(now - 60_000).toISOString(), "now"),
        ...visitsAt(domain!.id, new Date(now - 40 * 86_400_000).toISOString(), "recent"),
        ...visitsAt(domain!.id, new Date(now - 365 * 86_400_000).toISOString(), "year"),
        ...visitsAt(domain!.id, "1999-12-31T23:59:59.123Z", "y2k"),
      ];
      for (let i = 0; i < 300; i++) {
        rows.push(
          prepareVisit(
            domain!.id,
            { occurredAt: new Date(now - i * 3_600_000), path: `/bulk-${i}`, userAgent: UA.googlebot },
            `id:bulk-${i}`,
          )!,
        );
      }
      // Events without an id, stored with their keys' earlier form ("t:<time in hexadecimal>:<22 characters>", and
      // "#2" for a log's second identical line): the migration shortens them to what ingest computes now.
      const computed = [now - 5_000, now - 50 * 86_400_000, Date.parse("1969-07-20T20:17:40.5Z")].map(
        (ms, i) => ({
          domain: "moved.example",
          path: `/computed-${i}`,
          userAgent: UA.gptbot,
          ip: "66.249.66.1",
          referrer: undefined,
          status: 200,
          timestamp: new Date(ms),
        }),
      );
      const hexTime = (ms: number) => `${ms < 0 ? "-" : ""}${Math.abs(ms).toString(16).padStart(12, "0")}`;
      const earlierKey = (e: TrackingEvent) =>
        `t:${hexTime(e.timestamp.getTime())}:${eventKey(e).slice("t:".length)}AbCdEfGhIj-`;
      const computedRows = (key: (e: TrackingEvent) => string) =>
        computed.flatMap((e, i) => {
          const row = (k: string) => prepareVisit(domain!.id, { ...e, occurredAt: e.timestamp }, k)!;
          return i === 0 ? [row(key(e)), row(`${key(e)}#2`)] : [row(key(e))];
        });
      const earlierRows = computedRows(earlierKey);
      // Stored as the service stored visits before these migrations: every field in the visit's own row.
      const stored = [...rows, ...earlierRows, ...demoRows(domain!.id)];
      await insertEarlierLayout(db, stored);
      const keys = async () =>
        rowsOf<{ path: string; event_key: string }>(
          await db.execute(
            sql`select path, event_key from visits where path like '/computed-%' order by event_key`,
          ),
        ).map((r) => `${r.path} ${r.event_key}`);
      const keysBefore = await keys();
      expect(keysBefore).toHaveLength(4);
      // Every field of every visit (a computed key's earlier form aside), read from the row before the migrations
      // and from the row and its agent after them.
      const snapshot = async (from: ReturnType<typeof sql>) =>
        rowsOf<{ n: number; digest: string }>(
          await db.execute(sql`
            select count(*)::int as n, md5(string_agg(f, ',' order by f)) as digest
            from (select concat_ws('|', domain_id, occurred_at, path, user_agent, ip, referrer, status, bot_name,
                                   bot_purpose, is_ai_bot, verification, verification_method, citation_engine,
                                   citation_reason, case when event_key like 't:%' then '' else event_key end,
                                   is_demo) as f
                  from ${from}) fields`),
        )[0]!;
      const before = await snapshot(sql`visits`);
      expect(before.n).toBe(stored.length);

      await fresh.migrate(path.join(process.cwd(), "drizzle"));
      const after = await snapshot(
        sql`(select v.*, a.user_agent, a.bot_purpose, a.citation_reason, a.is_demo
             from visits v join visit_agents a on a.id = v.agent_id) joined`,
      );
      expect(after).toEqual(before);
      // Each distinct user agent, purpose, reason and demo flag stored once, under the key ingest computes.
      const agents = rowsOf<{
        key: string;
        user_agent: string;
        bot_purpose: string | null;
        citation_reason: string | null;
        is_demo: boolean;
      }>(
        await db.execute(
          sql`select key, user_agent, bot_purpose, citation_reason, is_demo from visit_agents`,
        ),
      );
      const distinct = new Set(
        stored.map((r) =>
          agentKey({
            userAgent: r.userAgent,
            botPurpose: r.botPurpose ?? null,
            citationReason: r.citationReason ?? null,
            isDemo: r.isDemo ?? false,
          }),
        ),
      );
      expect(agents.map((a) => a.key).sort()).toEqual([...distinct].sort());
      for (const a of agents)
        expect(a.key).toBe(
          agentKey({
            userAgent: a.user_agent,
            botPurpose: a.bot_purpose,
            citationReason: a.citation_reason,
            isDemo: a.is_demo,
          }),
        );
      // The keys kept their hash's first 11 characters and their "#2".
      expect(await keys()).toEqual(
        keysBefore
          .map((k) => k.replace(/ t:-?[0-9a-f]{12}:([A-Za-z0-9_-]{11})[A-Za-z0-9_-]{11}/, " t:$1"))
          .sort((a, b) => (a.split(" ")[1]! < b.split(" ")[1]! ? -1 : 1)),
      );
      // Sent again as ingest computes their keys now: duplicates.
      expect(await recordVisits(db, computedRows(eventKey))).toBe(0);
      const placed = await placement(db, domain!.id);
      const monthOf = (ms: number) => partitionName(new Date(ms));
      expect(placed["/now-bot"]).toBe(monthOf(now - 60_000));
      expect(placed["/recent-cited"]).toBe(monthOf(now - 40 * 86_400_000));
      expect(placed["/year-bot"]).toBe(monthOf(now - 365 * 86_400_000));
      expect(placed["/y2k-bot"]).toBe("visits_1999_12");
      // The months the runner keeps ready exist from the migration on.
      const names = (await partitions(db)).map((p) => p.name);
      for (const month of monthsToKeepReady(new Date(now), 13).map(partitionName))
        expect(names).toContain(month);

      // The visits lost their id and its sequence (0038): their primary key names them.
      const leftovers = rowsOf<{ name: string }>(
        await db.execute(sql`
          select attname::text as name from pg_attribute
          where attrelid = 'visits'::regclass and attnum > 0 and (attname = 'id' or attisdropped)
          union all select relname::text from pg_class where relname like 'visits_previous%' or relname = 'visits_id_seq'`),
      );
      expect(leftovers).toEqual([]);
      // The same events again are duplicates; new visits are stored.
      expect(await recordVisits(db, rows)).toBe(0);
      expect(await recordVisits(db, visitsAt(domain!.id, new Date(now).toISOString(), "next"))).toBe(2);
      // A removed domain's visits still go with it (the trigger on domains deletes from the partitioned table).
      await db.execute(sql`delete from domains where id = ${domain!.id}`);
      const [left] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from visits`));
      expect(left?.n).toBe(0);
    } finally {
      await fresh.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);
});
