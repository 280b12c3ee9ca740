// Which statements the Postgres client prepares once per connection: short ones with few parameters, and long
// ones that say so (the tracking insert); other long statements stay unprepared so their shapes do not pile up.
import { sql as drizzleSql, eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type DbHandle, openDatabase, PREPARED_STATEMENT, preparingClient } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { domains, type NewVisit } from "@/lib/db/schema";
import { prepareVisit, recordVisits } from "@/lib/tracking/ingest/record-visits";
import { createTestAccount } from "../accounts";
import { createTestDb, isPostgres } from "../db";
import { UA } from "../tracking/helpers";

const url = process.env.DATABASE_URL;
let sql: postgres.Sql | undefined;
beforeAll(() => {
  if (url) sql = preparingClient(postgres(url, { max: 1, prepare: true, onnotice: () => {} }));
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

const padding = (n: number) => `/* ${"x".repeat(n)} */`;
const prepared = async () =>
  (await sql!.unsafe("select statement from pg_prepared_statements")).map((r) => String(r.statement));

test.skipIf(!isPostgres())(
  "short statements and marked long ones are prepared; other long ones are not",
  async () => {
    const short = "select $1::int + 1 as n";
    const marked = `${PREPARED_STATEMENT} select $1::int + 2 as n ${padding(5000)}`;
    const long = `select $1::int + 3 as n ${padding(5000)}`;
    for (let i = 0; i < 2; i++) {
      expect((await sql!.unsafe(short, [1]))[0]?.n).toBe(2);
      expect((await sql!.unsafe(marked, [1]))[0]?.n).toBe(3);
      expect((await sql!.unsafe(long, [1]))[0]?.n).toBe(4);
    }
    const statements = await prepared();
    expect(statements).toContain(short);
    expect(statements).toContain(marked);
    expect(statements).not.toContain(long);
  },
);

test.skipIf(!isPostgres())("the tracking insert is prepared once per connection", async () => {
  const handle = await createTestDb();
  const pool = process.env.DATABASE_POOL_SIZE;
  process.env.DATABASE_POOL_SIZE = "1"; // one connection, so the statements seen are the ones it prepared
  const app = await openDatabase({ url: (handle as DbHandle & { url: string }).url });
  try {
    const acct = await createTestAccount(handle.db, { domains: ["prepared.example"] });
    const [domain] = await handle.db.select().from(domains).where(eq(domains.accountId, acct.accountId));
    const visit = (key: string) =>
      prepareVisit(domain!.id, { occurredAt: new Date(), path: "/", userAgent: UA.gptbot }, key) as NewVisit;
    expect(await recordVisits(app.db, [visit("a")])).toBe(1);
    expect(await recordVisits(app.db, [visit("b"), visit("c")])).toBe(2);
    const statements = rowsOf<{ statement: string }>(
      await app.db.execute(drizzleSql`select statement from pg_prepared_statements`),
    ).map((r) => r.statement);
    expect(
      statements.filter((s) => s.startsWith(PREPARED_STATEMENT) && s.includes("insert into visits")),
    ).toHaveLength(1);
  } finally {
    if (pool === undefined) delete process.env.DATABASE_POOL_SIZE;
    else process.env.DATABASE_POOL_SIZE = pool;
    await app.close();
    await handle.close();
  }
});
