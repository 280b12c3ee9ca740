// The Postgres driver's write after a closed connection (scripts/patch-postgres.mjs, run on install): a query on a
// connection whose backend died is rejected with CONNECTION_CLOSED instead of throwing from a timer, which would
// end the process during a database outage.
import postgres from "postgres";
import { afterEach, expect, inject, test } from "vitest";
import { isPostgres } from "../db";

const uncaught: Error[] = [];
const record = (err: Error) => uncaught.push(err);

afterEach(() => {
  process.off("uncaughtException", record);
});

test.skipIf(!isPostgres())(
  "a query on a connection whose backend was terminated is rejected, and the process and pool go on",
  async () => {
    const template = inject("dbTemplate");
    if (template.kind !== "postgres") return;
    process.on("uncaughtException", record);
    const sql = postgres(template.url, { max: 2, onnotice: () => {} });
    const admin = postgres(template.url, { max: 1, onnotice: () => {} });
    try {
      const reserved = await sql.reserve();
      const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await admin`select pg_terminate_backend(${row!.pid})`;
      await new Promise((resolve) => setTimeout(resolve, 200));

      await expect(reserved`select 1`).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
      // Give a write scheduled on the dead connection its turn: it must not throw.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught.map((e) => e.message)).toEqual([]);
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
      reserved.release();
    } finally {
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
  },
);
