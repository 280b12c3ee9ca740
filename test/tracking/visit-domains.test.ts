// A visit's domain without a foreign key: the ingest statement locks each domain of its batch once and refuses a
// batch whose domain is gone, and removing domains removes their visits (a trigger), however they are removed.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerDomain } from "@/lib/accounts/domains";
import type { DbHandle } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { domains, type NewVisit, visits } from "@/lib/db/schema";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { createTestAccount } from "../accounts";
import { createTestDb, isPostgres } from "../db";
import { UA } from "./helpers";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle?.close();
});

let n = 0;
const visitOf = (domainId: string, path = "/") =>
  prepareVisit(domainId, { occurredAt: new Date(), path, userAgent: UA.gptbot }, `key-${++n}`) as NewVisit;

const countFor = async (ids: string[]) =>
  (await handle.db.select({ id: visits.id }).from(visits).where(inArray(visits.domainId, ids))).length;

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

  test("removing domains removes their visits, one domain or many in one statement; others keep theirs", async () => {
    const one = await twoDomains();
    const other = await twoDomains();
    await recordVisits(handle.db, [visitOf(one.a.id), visitOf(one.b.id), visitOf(one.b.id, "/x")]);
    await recordVisits(handle.db, [visitOf(other.a.id), visitOf(other.b.id)]);
    await handle.db.delete(domains).where(eq(domains.id, one.a.id));
    expect(await countFor([one.a.id])).toBe(0);
    expect(await countFor([one.b.id])).toBe(2);
    await handle.db.delete(domains).where(eq(domains.accountId, other.acct.accountId));
    expect(await countFor([other.a.id, other.b.id])).toBe(0);
    expect(await countFor([one.b.id])).toBe(2);
  });

  test.skipIf(!isPostgres())(
    "a removal waits for a batch being stored, then removes its visits too (no visit outlives its domain)",
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
      await recordVisits(handle.db, [visitOf(a.id, "/held")]);
      // The batch's transaction stays open after its insert, holding its locks: the domain row (key share) and
      // the rollup rows it updated, which the removal's cascade must delete.
      const batch = handle.db.transaction(async (tx) => {
        await recordVisits(tx, [visitOf(a.id, "/held"), visitOf(a.id, "/held-2")]);
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
    },
  );
});

describe("a visit's key", () => {
  test("visits are keyed by domain and event key, and id has no index of its own", async () => {
    const indexes = rowsOf<{ indexname: string; indexdef: string }>(
      await handle.db.execute(
        sql`select indexname, indexdef from pg_indexes where tablename = 'visits' order by indexname`,
      ),
    );
    const pkey = indexes.find((i) => i.indexname === "visits_pkey");
    expect(pkey?.indexdef).toMatch(
      /UNIQUE INDEX visits_pkey ON public\.visits USING btree \(domain_id, event_key\)/,
    );
    // Every index leads with the domain: none costs an insert a descent for a lookup by id alone.
    expect(indexes.length).toBeGreaterThanOrEqual(3);
    expect(indexes.filter((i) => !/USING btree \(domain_id,/.test(i.indexdef))).toEqual([]);
  });

  test("the keys ingest writes and groups by compare byte by byte (collation C), the other text does not change", async () => {
    const columns = rowsOf<{ name: string; collation: string | null }>(
      await handle.db.execute(sql`
        select table_name || '.' || column_name as name, collation_name as collation
        from information_schema.columns
        where table_schema = 'public' and data_type = 'text'
          and table_name in ('visits', 'tracking_daily_bots', 'tracking_page_counts', 'tracking_daily_citations',
                             'tracking_cited_pages')
        order by 1`),
    );
    const bytewise = columns.filter((c) => c.collation === "C").map((c) => c.name);
    expect(bytewise).toEqual([
      "tracking_cited_pages.engine",
      "tracking_cited_pages.page",
      "tracking_daily_bots.bot_name",
      "tracking_daily_citations.engine",
      "tracking_page_counts.path",
      "visits.bot_name",
      "visits.citation_engine",
      "visits.event_key",
      "visits.path",
    ]);
    // What is shown and never compared keeps the database's collation.
    expect(columns.find((c) => c.name === "visits.user_agent")?.collation).toBeNull();
  });
});
