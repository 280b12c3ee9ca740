// COPY … FROM STDIN over postgres.js (the web graph import's way into Postgres): a COPY the server fails settles
// with the server's error and its transaction rolls back, wherever in the data the failure comes.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { copyIn } from "@/lib/db/copy-in";
import { createTestDb, isPostgres } from "../db";

let handle: DbHandle | undefined;
let sql: postgres.Sql | undefined;
beforeAll(async () => {
  if (!isPostgres()) return;
  handle = await createTestDb();
  // One connection: a transaction left open on it would hold up every later query.
  sql = postgres((handle as DbHandle & { url: string }).url, { max: 1, onnotice: () => {} });
  await sql`create table copy_target (k text primary key, n int not null)`;
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await handle?.close();
});

/** The promise's outcome, or "unsettled" when it has none within `ms`. */
function within<T>(p: Promise<T>, ms = 3000): Promise<{ ok: T } | { error: unknown } | "unsettled"> {
  return Promise.race([
    p.then(
      (ok) => ({ ok }),
      (error: unknown) => ({ error }),
    ),
    new Promise<"unsettled">((r) => setTimeout(() => r("unsettled"), ms).unref()),
  ]);
}

const codeOf = (outcome: Awaited<ReturnType<typeof within>>) =>
  typeof outcome === "object" && "error" in outcome ? (outcome.error as { code?: string }).code : outcome;

test.skipIf(!isPostgres())("a COPY stores its rows", async () => {
  await sql!.begin((tx) => copyIn(tx as never, "copy copy_target (k, n) from stdin", ["a\t1\n", "b\t2\n"]));
  expect(await sql!`select k, n from copy_target order by k`).toEqual([
    { k: "a", n: 1 },
    { k: "b", n: 2 },
  ]);
});

test.skipIf(!isPostgres())(
  "a COPY failing after all its data was sent (a duplicate key) rejects with the server's error and rolls back",
  async () => {
    const outcome = await within(
      sql!.begin(async (tx) => {
        await tx`insert into copy_target values ('inside', 0)`;
        await copyIn(tx as never, "copy copy_target (k, n) from stdin", ["c\t3\n", "a\t9\n"]);
      }),
    );
    expect(codeOf(outcome)).toBe("23505");
    // Rolled back whole, and the one connection is free again (not idle in an aborted transaction).
    expect(await sql!`select k from copy_target order by k`).toEqual([{ k: "a" }, { k: "b" }]);
  },
);

test.skipIf(!isPostgres())(
  "a COPY refusing a bad value in its first row, with megabytes of data behind it, rejects with the server's error",
  async () => {
    // A bad first row, then megabytes more: the server may refuse the COPY before or after the client ends it.
    const rows = function* () {
      yield "d\tnot a number\n";
      for (let i = 0; i < 200; i++)
        yield `${Array.from({ length: 1000 }, (_, j) => `e${i}-${j}\t${j}`).join("\n")}\n`;
    };
    const outcome = await within(
      sql!.begin((tx) => copyIn(tx as never, "copy copy_target (k, n) from stdin", rows())),
    );
    expect(codeOf(outcome)).toBe("22P02");
    expect(await sql!`select count(*)::int as n from copy_target`).toEqual([{ n: 2 }]);
  },
);

test.skipIf(!isPostgres())(
  "postgres.js's own writable never settles that COPY (why copyIn exists: drop it once this fails)",
  async () => {
    const own = postgres((handle as DbHandle & { url: string }).url, { max: 1, onnotice: () => {} });
    try {
      const outcome = await within(
        own.begin(async (tx) => {
          const stream = await tx.unsafe("copy copy_target (k, n) from stdin").writable();
          await pipeline(Readable.from(["a\t9\n"]), stream);
        }),
        1500,
      );
      expect(outcome).toBe("unsettled");
    } finally {
      await own.end({ timeout: 1 });
    }
  },
);
