import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { dbTest } from "@/test/support/fixtures";
import { runImportWebgraphCommand } from "./import-command";
import { edgePartition, importWebgraph, rowsOf } from "./import-webgraph";
import { WebgraphFormatError } from "./parse";
import { backlinksOverview, domainAuthority } from "./queries";

const FIXTURES = path.join(import.meta.dirname, "../../test/fixtures/webgraph");
const files = (release: string, level: "host" | "domain") => ({
  verticesFile: path.join(FIXTURES, `${release}-${level}-vertices.txt.gz`),
  edgesFile: path.join(FIXTURES, `${release}-${level}-edges.txt.gz`),
  ranksFile: path.join(FIXTURES, `${release}-${level}-ranks.txt.gz`),
});
const D1 = { name: "cc-main-sample-d1", takenOn: "2025-02-28" };
const D2 = { name: "cc-main-sample-d2", takenOn: "2025-08-31" };

const test = dbTest;
let handle: DbHandle;
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
});

const count = async (table: string, snapshotId: number) =>
  Number(
    rowsOf<{ n: string | number }>(
      await handle.db.execute(
        sql`select count(*) as n from ${sql.raw(table)} where snapshot_id = ${snapshotId}`,
      ),
    )[0]?.n,
  );

const inDegrees = async (snapshotId: number) =>
  rowsOf<{ in_degree: number }>(
    await handle.db.execute(
      sql`select in_degree from webgraph_vertices where snapshot_id = ${snapshotId} order by vertex_id`,
    ),
  ).map((r) => r.in_degree);

describe("importWebgraph", () => {
  test("an interrupted import resumes where it stopped and writes every row once", async () => {
    let batches = 0;
    const interrupted = importWebgraph(handle.db, {
      snapshot: D2,
      level: "domain",
      ...files("d2", "domain"),
      batchSize: 2,
      onProgress: (p) => {
        // Stop in the middle of the edges, after some were committed.
        if (p.phase === "edges" && ++batches === 2) throw new Error("killed");
      },
    });
    await expect(interrupted).rejects.toThrow("killed");
    const [snap] = rowsOf<{ id: number; status: string; progress: { edges: number } }>(
      await handle.db.execute(
        sql`select id, status, progress from webgraph_snapshots where name = ${D2.name}`,
      ),
    );
    expect(snap?.status).toBe("importing");
    expect(snap?.progress.edges).toBe(4);
    // Committed into the snapshot's own partition, not yet attached (so not yet visible through the parent).
    expect(await count(edgePartition(snap!.id), snap!.id)).toBe(4);
    expect(await count("webgraph_edges", snap!.id)).toBe(0);

    const resumed = await importWebgraph(handle.db, {
      snapshot: D2,
      level: "domain",
      ...files("d2", "domain"),
      batchSize: 2,
    });
    expect(resumed.imported).toBe(true);
    // The edges come first: the resumed run reads their second half, then the vertices and ranks.
    expect(resumed.linesRead).toEqual({ vertices: 5, ranks: 5, edges: 4 });
    expect(await count("webgraph_edges", snap!.id)).toBe(8);
    expect(await count("webgraph_vertices", snap!.id)).toBe(5);
    expect(await count("webgraph_ranks", snap!.id)).toBe(5);
    // This run read only half the edge file: the database counted the in-degrees over the whole partition.
    expect(await inDegrees(snap!.id)).toEqual([1, 4, 0, 1, 2]);

    const again = await importWebgraph(handle.db, {
      snapshot: D2,
      level: "domain",
      ...files("d2", "domain"),
    });
    expect(again.imported).toBe(false);
    expect(await count("webgraph_edges", snap!.id)).toBe(8);
  });

  test("imports the host level and an older release", async () => {
    const host = await importWebgraph(handle.db, { snapshot: D2, level: "host", ...files("d2", "host") });
    expect(host.linesRead).toEqual({ vertices: 7, ranks: 7, edges: 8 });
    // In process, PGlite takes COPY too (from a blob); Postgres over the wire.
    expect(host.method).toBe("copy");
    const old = await importWebgraph(handle.db, { snapshot: D1, level: "domain", ...files("d1", "domain") });
    expect(await count("webgraph_edges", old.snapshotId)).toBe(3);
    // Read in one run: counted as the edge file streamed by, the same figures as the database's count.
    const [byDatabase] = rowsOf<{ n: string }>(
      await handle.db.execute(
        sql`select string_agg(coalesce(c.n, 0)::text, ',' order by v.vertex_id) as n from webgraph_vertices v
            left join (select to_id, count(*) as n from webgraph_edges where snapshot_id = ${host.snapshotId} and from_id <> to_id group by to_id) c
              on c.to_id = v.vertex_id
            where v.snapshot_id = ${host.snapshotId}`,
      ),
    );
    expect((await inDegrees(host.snapshotId)).join(",")).toBe(byDatabase!.n);
    expect(await inDegrees(host.snapshotId)).not.toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  test("a line out of format names the file and line", async () => {
    const bad = path.join(tmpdir(), `webgraph-bad-${process.pid}.txt`);
    writeFileSync(bad, "0\t1\n1\tnot-a-number\n");
    const run = importWebgraph(handle.db, {
      snapshot: { name: "broken", takenOn: "2025-01-01" },
      level: "domain",
      ...files("d1", "domain"),
      edgesFile: bad,
    });
    await expect(run).rejects.toBeInstanceOf(WebgraphFormatError);
    await expect(run).rejects.toThrow(`${bad}:2`);
  });
});

describe("backlinksOverview", () => {
  test("counts referring domains and hosts and ranks the target in the newest snapshot", async () => {
    const o = await backlinksOverview(handle.db, { target: "www.example.com" });
    expect(o).not.toBeNull();
    expect(o!.snapshot).toBe(D2.name);
    expect(o!.found).toBe(true);
    // coffee-roasters, news-daily, brew-guide, wikipedia
    expect(o!.referringDomains).toBe(4);
    // five hosts outside example.com; blog.example.com is its own
    expect(o!.referringHosts).toBe(5);
    expect(o!.rank).toMatchObject({ harmonicCentralityRank: 2, pageRankRank: 1, level: "domain" });
    // 100·(1 − ln2/ln6)/2 + 100/2 = 80.65
    expect(o!.rank!.authorityScore).toBe(81);
    expect(o!.topReferringDomains.map((d) => d.domain)).toEqual([
      "wikipedia.org",
      "news-daily.com",
      "brew-guide.org",
      "coffee-roasters.com",
    ]);
    expect(o!.topReferringDomains[0]).toMatchObject({ harmonicCentralityRank: 1, pageRankRank: 2 });
    expect(o!.history).toBeUndefined();
  });

  test("history lists every snapshot oldest first", async () => {
    const o = await backlinksOverview(handle.db, { target: "example.com", includeHistory: true });
    expect(o!.history!.map((h) => [h.snapshot, h.referringDomains, h.referringHosts])).toEqual([
      [D1.name, 2, null],
      [D2.name, 4, 5],
    ]);
    expect(o!.history![0]!.rank).toMatchObject({ harmonicCentralityRank: 3, pageRankRank: 2 });
  });

  test("a target missing from the graph is reported as not found, with zero links", async () => {
    const o = await backlinksOverview(handle.db, { target: "unknown.example.net" });
    expect(o).toMatchObject({
      found: false,
      referringDomains: 0,
      referringHosts: 0,
      rank: null,
      topReferringDomains: [],
    });
  });
});

describe("domainAuthority", () => {
  test("scores each asked domain, in the order asked, from the newest domain graph", async () => {
    const r = await domainAuthority(handle.db, {
      domains: ["wikipedia.org", "nowhere.test", "blog.example.com", "coffee-roasters.com"],
    });
    expect(r.snapshot).toEqual({ name: D2.name, takenOn: D2.takenOn, level: "domain" });
    expect(r.domains.map((d) => [d.domain, d.found, d.referringDomains, d.harmonicCentralityRank])).toEqual([
      ["wikipedia.org", true, 2, 1],
      ["nowhere.test", false, 0, null],
      ["blog.example.com", true, 4, 2],
      ["coffee-roasters.com", true, 1, 5],
    ]);
    expect(r.domains[2]!.authorityScore).toBeGreaterThan(r.domains[3]!.authorityScore!);
    expect(r.domains[1]!.authorityScore).toBeNull();
  });
});

// Last: it adds a ready snapshot, which the tests above do not expect.
describe("importWebgraph without COPY", () => {
  test("a database reached without COPY (PGlite served over a socket) gets the same rows by batched INSERT", async () => {
    // The same database, its driver hidden: the import falls back to INSERTs of the scanned text.
    const plain = Object.create(handle.db, { $client: { value: undefined } }) as typeof handle.db;
    const r = await importWebgraph(plain, {
      snapshot: { name: "cc-main-sample-insert", takenOn: "2024-12-31" },
      level: "domain",
      ...files("d2", "domain"),
      batchSize: 3,
    });
    expect(r.method).toBe("insert");
    expect(await count("webgraph_edges", r.snapshotId)).toBe(8);
    expect(await count("webgraph_vertices", r.snapshotId)).toBe(5);
    const ranks = rowsOf<{ rev_host: string; harmonic_val: number; host_count: string | number | null }>(
      await handle.db.execute(
        sql`select rev_host, harmonic_val, host_count from webgraph_ranks where snapshot_id = ${r.snapshotId} order by harmonic_pos`,
      ),
    );
    expect(ranks[0]).toMatchObject({ rev_host: "org.wikipedia", harmonic_val: 34626736 });
    expect(Number(ranks[0]!.host_count)).toBe(40);
    const degrees = rowsOf<{ rev_host: string; in_degree: number }>(
      await handle.db.execute(
        sql`select rev_host, in_degree from webgraph_vertices where snapshot_id = ${r.snapshotId} order by vertex_id`,
      ),
    );
    expect(degrees.map((d) => d.in_degree)).toEqual([1, 4, 0, 1, 2]);
  });

  test("an import begun when vertices went through a staging table, and stopped in its edges, completes", async () => {
    const snapshot = { name: "cc-main-sample-staged", takenOn: "2023-12-31" };
    const interrupted = importWebgraph(handle.db, {
      snapshot,
      level: "domain",
      ...files("d1", "domain"),
      batchSize: 2,
      onProgress: () => {
        throw new Error("killed");
      },
    });
    await expect(interrupted).rejects.toThrow("killed");
    const [snap] = rowsOf<{ id: number }>(
      await handle.db.execute(sql`select id from webgraph_snapshots where name = ${snapshot.name}`),
    );
    const id = snap!.id;
    // What that version left: its vertices staged and counted as read, no vertices partition yet.
    await handle.db.execute(sql.raw(`drop table webgraph_vertices_s${id}`));
    await handle.db.execute(
      sql.raw(
        `create table webgraph_vertices_stage_s${id} (vertex_id bigint not null, rev_host text not null)`,
      ),
    );
    await handle.db.execute(
      sql.raw(
        `insert into webgraph_vertices_stage_s${id} values (0, 'com.example'), (1, 'com.news-daily'), (2, 'org.wikipedia')`,
      ),
    );
    await handle.db.execute(
      sql`update webgraph_snapshots set progress = jsonb_set(progress, '{vertices}', '3') where id = ${id}`,
    );

    const resumed = await importWebgraph(handle.db, { snapshot, level: "domain", ...files("d1", "domain") });
    expect(resumed.linesRead).toMatchObject({ vertices: 0, edges: 1 });
    expect(await count("webgraph_edges", id)).toBe(3);
    expect(await inDegrees(id)).toEqual([2, 1, 0]);
    const [staged] = rowsOf<{ ok: boolean }>(
      await handle.db.execute(sql.raw(`select to_regclass('webgraph_vertices_stage_s${id}') is null as ok`)),
    );
    expect(staged?.ok).toBe(true);
  });
});

describe("the import command's --date", () => {
  const usage = (message: string) => new Error(`usage: ${message}`);
  test.each(["2025-02-31", "2025-02-29", "0000-01-01", "2025-2-28", "28.02.2025"])(
    "%s is refused",
    async (date) => {
      await expect(
        runImportWebgraphCommand(
          handle.db,
          { ...D1, release: D1.name, date, level: "host", ...files(D1.name, "host") },
          usage,
        ),
      ).rejects.toThrow("usage: --date must be a date, YYYY-MM-DD");
    },
  );
});
