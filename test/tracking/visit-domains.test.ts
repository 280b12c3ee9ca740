// A visit's domain, and its rollups', without a foreign key: the ingest statement locks each domain of its batch once
// and refuses a batch whose domain is gone, and removing domains removes their visits and rollup rows (a trigger),
// however they are removed.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { domains, type NewVisit, visits } from "@/lib/db/schema";
import { eventKey, type TrackingEvent, validateEvents } from "@/lib/tracking/ingest/event-schema";
import { ingestEvents } from "@/lib/tracking/ingest/ingest-visits";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { dbTest } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";
import { isPostgres } from "../db";
import { UA } from "./helpers";

const test = dbTest;
let handle: DbHandle;
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
});

let n = 0;
const visitOf = (domainId: string, path = "/") =>
  prepareVisit(domainId, { occurredAt: new Date(), path, userAgent: UA.gptbot }, `key-${++n}`) as NewVisit;
/** A user-triggered fetch by ChatGPT: a citation, so it also writes the citation rollups. */
const citationOf = (domainId: string, path = "/") =>
  prepareVisit(
    domainId,
    { occurredAt: new Date(), path, userAgent: UA.chatgptUser },
    `key-${++n}`,
  ) as NewVisit;

const countFor = async (ids: string[]) =>
  (await handle.db.select({ key: visits.eventKey }).from(visits).where(inArray(visits.domainId, ids))).length;

/** Every tracking table keyed by domain but the visits: the rollups (a table added later is covered too). */
async function rollupTables(): Promise<string[]> {
  return rowsOf<{ table_name: string }>(
    await handle.db.execute(sql`
      select table_name from information_schema.columns
      where table_schema = current_schema() and column_name = 'domain_id' and left(table_name, 9) = 'tracking_'
      order by 1`),
  ).map((r) => r.table_name);
}

/** The domains' rows in each rollup table. */
async function rollupRowsFor(ids: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await rollupTables()) {
    const [row] = rowsOf<{ n: number }>(
      await handle.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table)}
            where domain_id in (${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`,
      ),
    );
    counts[table] = row!.n;
  }
  return counts;
}
const none = async () => Object.fromEntries((await rollupTables()).map((t) => [t, 0]));

async function twoDomains() {
  const acct = await createTestAccount(handle.db);
  const a = await registerDomain(handle.db, acct.accountId, `a${++n}.example`);
  const b = await registerDomain(handle.db, acct.accountId, `b${++n}.example`);
  return { acct, a, b };
}

describe("a visit's domain", () => {
  test("a batch naming a removed domain stores nothing, for any of its domains, and says why", async () => {
    const { a, b } = await twoDomains();
    const rows = [visitOf(a.id, "/1"), visitOf(b.id, "/2"), visitOf(a.id, "/3")];
    await handle.db.delete(domains).where(eq(domains.id, b.id));
    await expect(recordVisits(handle.db, rows)).rejects.toMatchObject({ code: "FORBIDDEN_SCOPE" });
    expect(await countFor([a.id, b.id])).toBe(0);
    // The same batch without the removed domain is stored.
    expect(await recordVisits(handle.db, [rows[0]!, rows[2]!])).toBe(2);
  });

  test("a domain that never existed is refused the same way", async () => {
    const ghost = "00000000-0000-4000-8000-00000000dead";
    await expect(recordVisits(handle.db, [visitOf(ghost)])).rejects.toMatchObject({
      code: "FORBIDDEN_SCOPE",
    });
    expect(await countFor([ghost])).toBe(0);
  });

  test("removing domains removes their visits and rollup rows, one domain or many in one statement; others keep theirs", async () => {
    const one = await twoDomains();
    const other = await twoDomains();
    await recordVisits(handle.db, [
      visitOf(one.a.id),
      citationOf(one.a.id),
      visitOf(one.b.id),
      visitOf(one.b.id, "/x"),
    ]);
    await recordVisits(handle.db, [visitOf(other.a.id), citationOf(other.b.id)]);
    const kept = await rollupRowsFor([one.b.id]);
    // Every rollup table holds rows of the domain about to go, so each table's removal is seen.
    expect(await rollupTables()).toHaveLength(6);
    expect(Object.values(await rollupRowsFor([one.a.id])).every((c) => c > 0)).toBe(true);
    await handle.db.delete(domains).where(eq(domains.id, one.a.id));
    expect(await countFor([one.a.id])).toBe(0);
    expect(await rollupRowsFor([one.a.id])).toEqual(await none());
    expect(await countFor([one.b.id])).toBe(2);
    expect(await rollupRowsFor([one.b.id])).toEqual(kept);
    // An account's removal removes its domains, and with them their visits and rollups.
    await handle.db.delete(domains).where(eq(domains.accountId, other.acct.accountId));
    expect(await countFor([other.a.id, other.b.id])).toBe(0);
    expect(await rollupRowsFor([other.a.id, other.b.id])).toEqual(await none());
    expect(await countFor([one.b.id])).toBe(2);
    expect(await rollupRowsFor([one.b.id])).toEqual(kept);
  });

  test.skipIf(!isPostgres())(
    "a removal waits for a batch being stored, then removes its visits and rollup rows too (nothing outlives its domain)",
    async () => {
      const { a } = await twoDomains();
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let stored!: () => void;
      const insertedRows = new Promise<void>((r) => {
        stored = r;
      });
      await recordVisits(handle.db, [visitOf(a.id, "/held"), citationOf(a.id, "/cited")]);
      // The batch's transaction stays open after its insert, holding its locks: the domain row (key share) and
      // the rollup rows it updated, which the removal's cascade must delete.
      const batch = handle.db.transaction(async (tx) => {
        // New rollup rows (a new page, a page cited for the first time) and rows added to.
        await recordVisits(tx, [
          visitOf(a.id, "/held"),
          visitOf(a.id, "/held-2"),
          citationOf(a.id, "/cited-2"),
        ]);
        stored();
        await held;
      });
      await insertedRows;
      let removed = false;
      const removal = handle.db
        .delete(domains)
        .where(eq(domains.id, a.id))
        .then(() => {
          removed = true;
        });
      await new Promise((r) => setTimeout(r, 300));
      expect(removed).toBe(false); // waiting on the batch's locks
      release();
      await batch;
      await removal;
      expect(removed).toBe(true);
      expect(await countFor([a.id])).toBe(0);
      expect(await rollupRowsFor([a.id])).toEqual(await none());
    },
  );
});

describe("a visit's key", () => {
  // The key holds the time: every unique key of a table partitioned by time must hold its partition key.
  test("visits are keyed by domain, time and event key, and id has no index of its own", async () => {
    const indexes = rowsOf<{ indexname: string; indexdef: string }>(
      await handle.db.execute(
        sql`select indexname, indexdef from pg_indexes where tablename = 'visits' order by indexname`,
      ),
    );
    const pkey = indexes.find((i) => i.indexname === "visits_pkey");
    expect(pkey?.indexdef).toMatch(
      /UNIQUE INDEX visits_pkey ON ONLY public\.visits USING btree \(domain_id, occurred_at, event_key\)/,
    );
    // Every index leads with the domain: none costs an insert a descent for a lookup by id alone. The key is also
    // the visits' time index: the only other is the citations' partial one.
    expect(indexes.map((i) => i.indexname)).toEqual(["visits_citations_idx", "visits_pkey"]);
    expect(indexes.filter((i) => !/USING btree \(domain_id,/.test(i.indexdef))).toEqual([]);
  });

  test("the keys ingest writes and groups by compare byte by byte (collation C), the other text does not change", async () => {
    const columns = rowsOf<{ name: string; collation: string | null }>(
      await handle.db.execute(sql`
        select table_name || '.' || column_name as name, collation_name as collation
        from information_schema.columns
        where table_schema = 'public' and data_type = 'text'
          and table_name in ('visits', 'visit_agents', 'tracking_daily_bots', 'tracking_page_counts',
                             'tracking_daily_citations', 'tracking_cited_pages')
        order by 1`),
    );
    const bytewise = columns.filter((c) => c.collation === "C").map((c) => c.name);
    expect(bytewise).toEqual([
      "tracking_cited_pages.engine",
      "tracking_cited_pages.page",
      "tracking_daily_bots.bot_name",
      "tracking_daily_citations.engine",
      "tracking_page_counts.path",
      "visit_agents.key",
      "visits.bot_name",
      "visits.citation_engine",
      "visits.event_key",
      "visits.path",
    ]);
    // What is shown and never compared keeps the database's collation.
    expect(columns.find((c) => c.name === "visit_agents.user_agent")?.collation).toBeNull();
  });

  test("keys stored before migrations 0019 and 0034 become what ingest computes now: the same events sent again are duplicates", async () => {
    const acct = await createTestAccount(handle.db);
    const domain = await registerDomain(handle.db, acct.accountId, `keys${++n}.example`);
    // The computed key as it was stored before: "sha256:" and the whole hash of the same fields in hexadecimal.
    const oldKey = (e: TrackingEvent) =>
      `sha256:${createHash("sha256")
        .update(
          JSON.stringify([
            e.domain,
            e.path,
            e.userAgent,
            e.ip ?? "",
            e.referrer ?? "",
            e.status ?? "",
            e.timestamp.toISOString(),
          ]),
        )
        .digest("hex")}`;
    const at = Date.now() - 3_600_000;
    const body = {
      events: [
        { domain: domain.hostname, path: "/a", userAgent: UA.gptbot, timestamp: new Date(at).toISOString() },
        {
          domain: domain.hostname,
          path: "/b?x=1",
          userAgent: UA.gptbot,
          ip: "20.171.206.10",
          status: 404,
          timestamp: new Date(at + 1).toISOString(),
        },
        {
          domain: domain.hostname,
          path: "/c",
          userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36",
          referrer: "https://chatgpt.com/",
          timestamp: new Date(at - 86_399_999).toISOString(),
        },
      ],
    };
    const validated = validateEvents(body);
    if (!validated.ok) throw new Error("the batch should be valid");
    const events = validated.accepted.map((a) => a.event);
    // Log lines can be years old (or older than 1970), and the n-th identical line of an upload has "#n".
    const logLine = (path: string, at: string): TrackingEvent => ({
      domain: domain.hostname,
      path,
      userAgent: UA.gptbot,
      ip: "66.249.66.1",
      referrer: undefined,
      status: 200,
      timestamp: new Date(at),
    });
    const logEvents = [
      logLine("/old", "1999-12-31T23:59:59.123Z"),
      logLine("/older", "1969-07-20T20:17:40.5Z"),
    ];
    const stored = [
      ...events.map((e) => ({ e, suffix: "" })),
      ...logEvents.map((e) => ({ e, suffix: "" })),
      { e: logEvents[0]!, suffix: "#2" },
    ];
    const rows = stored.map(({ e, suffix }) =>
      prepareVisit(domain.id, { ...e, occurredAt: e.timestamp }, `${oldKey(e)}${suffix}`),
    );
    expect(await recordVisits(handle.db, rows as NewVisit[])).toBe(stored.length);

    const migration = readFileSync(
      path.join(process.cwd(), "drizzle/0019_event_keys_ordered_by_time.sql"),
      "utf8",
    );
    // As the migrator runs it: statement by statement, in one transaction.
    await handle.db.transaction(async (tx) => {
      for (const statement of migration.split("--> statement-breakpoint"))
        await tx.execute(sql.raw(statement));
    });
    // Then 0034, which copied every visit into the partitioned table, shortened each computed key as it went.
    await handle.db.execute(
      sql`update visits set event_key = visits_short_event_key(event_key) where domain_id = ${domain.id}`,
    );

    const keys = rowsOf<{ event_key: string }>(
      await handle.db.execute(
        sql`select event_key from visits where domain_id = ${domain.id} order by event_key`,
      ),
    ).map((r) => r.event_key);
    expect(keys).toEqual(stored.map(({ e, suffix }) => `${eventKey(e)}${suffix}`).sort());
    expect(keys.every((k) => k.startsWith("t:"))).toBe(true);
    const again = await ingestEvents(handle.db, acct.accountId, body);
    expect(again).toMatchObject({ accepted: 0, duplicates: 3 });
  });
});
