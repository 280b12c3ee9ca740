import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { type PgliteSocketServer, servePgliteSocket } from "@/lib/db/pglite-socket";

// The socket shares one PGlite session between the owning process and its clients: a client's
// transaction must never take in the owner's statements, and a client that vanishes or stalls
// mid-transaction must not keep the database locked.
let dir: string;
let pg: PGlite;
let server: PgliteSocketServer;

async function start(idleInTransactionMs = 10_000) {
  server = await servePgliteSocket(pg, path.join(dir, "s"), { idleInTransactionMs });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pgsock-"));
  pg = await PGlite.create("memory://");
  await pg.exec("create table t (v text not null, at timestamptz not null default clock_timestamp())");
});
beforeEach(() => pg.exec("delete from t"));
afterEach(() => server?.close());
afterAll(async () => {
  await pg.close();
  rmSync(dir, { recursive: true, force: true });
});

function client() {
  return postgres({
    path: server.path,
    user: "postgres",
    database: "postgres",
    prepare: false,
    max: 2,
    onnotice: () => {},
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** A bare client: startup, then simple queries; resolves once the last ReadyForQuery arrives. */
async function rawClient(queries: string[]) {
  const socket = connect(server.path);
  await new Promise((r) => socket.once("connect", r));
  const params = Buffer.from("user\0postgres\0database\0postgres\0\0");
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(8 + params.length, 0);
  startup.writeInt32BE(196608, 4);
  let received = Buffer.alloc(0);
  socket.on("data", (d) => {
    received = Buffer.concat([received, d]);
  });
  const ready = Buffer.from([0x5a, 0, 0, 0, 5]);
  const readyCount = () => {
    let n = 0;
    for (let i = received.indexOf(ready); i >= 0; i = received.indexOf(ready, i + 1)) n++;
    return n;
  };
  socket.write(Buffer.concat([startup, params, ...queries.map((q) => message("Q", Buffer.from(`${q}\0`)))]));
  while (readyCount() < queries.length + 1) await sleep(10);
  return { socket, received: () => received.toString("latin1") };
}

test("a client's transaction holds the session: the owner's statement waits and is not rolled back with it", async () => {
  await start();
  const sql = client();
  // The owner's statement is sent once the client's transaction has written (not after a guessed delay, which a
  // loaded machine can outrun).
  let clientWrote!: () => void;
  const insideTransaction = new Promise<void>((resolve) => {
    clientWrote = resolve;
  });
  const inTx = sql
    .begin(async (tx) => {
      await tx`insert into t (v) values ('client')`;
      clientWrote();
      await sleep(300);
      throw new Error("roll back");
    })
    .catch((e: Error) => e.message);
  await insideTransaction;
  const ownerStarted = Date.now();
  await pg.query("insert into t (v) values ('owner')");
  const ownerWaited = Date.now() - ownerStarted;
  expect(await inTx).toBe("roll back");
  const rows = await pg.query<{ v: string }>("select v from t");
  expect(rows.rows.map((r) => r.v)).toEqual(["owner"]);
  // The owner's insert ran after the client's transaction ended, not inside it.
  expect(ownerWaited).toBeGreaterThanOrEqual(150);
  await sql.end();
});

test("statements from two clients and the owner interleave and all commit", async () => {
  await start();
  const a = client();
  const b = client();
  await Promise.all([
    ...Array.from({ length: 20 }, (_, i) => a`insert into t (v) values (${`a${i}`})`),
    ...Array.from({ length: 20 }, (_, i) => b.begin((tx) => tx`insert into t (v) values (${`b${i}`})`)),
    ...Array.from({ length: 20 }, (_, i) => pg.query("insert into t (v) values ($1)", [`o${i}`])),
  ]);
  const count = await pg.query<{ n: number }>("select count(*)::int as n from t");
  expect(count.rows[0]!.n).toBe(60);
  expect(pg.isInTransaction()).toBe(false);
  await Promise.all([a.end(), b.end()]);
});

test("a client that disconnects mid-transaction is rolled back and the session freed", async () => {
  await start();
  const raw = await rawClient(["begin", "insert into t (v) values ('lost')"]);
  expect(pg.isInTransaction()).toBe(true);
  raw.socket.destroy();
  const started = Date.now();
  await pg.query("insert into t (v) values ('owner')");
  expect(Date.now() - started).toBeLessThan(2_000);
  expect((await pg.query<{ v: string }>("select v from t")).rows.map((r) => r.v)).toEqual(["owner"]);
  expect(pg.isInTransaction()).toBe(false);
});

test("a client idle in a transaction is cut off after the limit, so the owner is not blocked for ever", async () => {
  await start(300);
  const raw = await rawClient(["begin", "insert into t (v) values ('stalled')"]);
  const closed = new Promise((r) => raw.socket.once("close", r));
  const started = Date.now();
  await pg.query("insert into t (v) values ('owner')");
  const waited = Date.now() - started;
  expect(waited).toBeGreaterThanOrEqual(200);
  expect(waited).toBeLessThan(3_000);
  await closed;
  expect(raw.received()).toContain("idle-in-transaction timeout");
  expect((await pg.query<{ v: string }>("select v from t")).rows.map((r) => r.v)).toEqual(["owner"]);
});

test("a Terminate message ends the client, not the shared session", async () => {
  await start();
  const sql = client();
  expect((await sql`select 1 as one`)[0]!.one).toBe(1);
  await sql.end();
  await pg.query("insert into t (v) values ('still here')");
  expect((await pg.query("select v from t")).rows).toHaveLength(1);
});
