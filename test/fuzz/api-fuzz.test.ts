import { and, eq, gt, inArray, max } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, expect } from "vitest";
import { setVerificationDeps } from "@/lib/accounts/domain-verification";
import type { DbHandle } from "@/lib/db/client";
import { accounts, creditLedger, jobs } from "@/lib/db/schema";
import type { GuardedFetch } from "@/lib/fetch/types";
import { apiTest } from "@/test/support/fixtures";
import { createTestAccount, type TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import {
  type AuthMode,
  type FuzzRequest,
  mcpRequest,
  oversizeHeaderRequest,
  targetRequest,
  unknownPathRequest,
} from "./requests";
import { formatReport, runFuzz } from "./run";
import { fuzzTargets } from "./targets";

// Fuzzes every /api/v1 operation of the operation list (so a new endpoint is fuzzed without a change
// here), unknown paths and the MCP endpoint over real HTTP on a real database: near-miss and arbitrary
// bodies, malformed and compressed bytes, wrong content types, odd query strings, path parameters,
// headers and methods, with and without credentials. Every answer must be below 500 and carry its
// request id in the envelope, and no credit may move except the charge of a job an answer reported.
//
// The run's size and seed; FUZZ_SEED replays or varies a run, FUZZ_SCALE grows it.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const TOTAL = Math.round(10_000 * SCALE);
const MCP_REQUESTS = Math.round(1_800 * SCALE);
const UNKNOWN_PATHS = Math.round(400 * SCALE);
const OVERSIZE = 16;
// The REST operations share the rest, however many the list holds.
const PER_TARGET = Math.ceil(
  (TOTAL - MCP_REQUESTS - UNKNOWN_PATHS - OVERSIZE) / fuzzTargets().filter((t) => !t.mcp).length,
);
const CONCURRENCY = 8;

const test = apiTest.withAccount({
  credits: 1_000_000,
  domains: ["example.com"],
  rateLimitPerMinute: 1_000_000,
});
let handle: DbHandle;
let api: TestApi;
let rich: TestAccount;
let poor: TestAccount;
let limited: TestAccount;

test.beforeAll(async ({ handle: _handle, api: _api, acct: _rich }) => {
  handle = _handle;
  api = _api;
  rich = _rich;
  poor = await createTestAccount(handle.db, { credits: 0, rateLimitPerMinute: 1_000_000 });
  limited = await createTestAccount(handle.db, { credits: 1_000, rateLimitPerMinute: 3 });
  // Domain verification must not leave the machine: no DNS record, no proof file.
  const offline = (async () => {
    throw Object.assign(new Error("offline"), { code: "FETCH_FAILED" });
  }) as unknown as GuardedFetch;
  setVerificationDeps({
    resolveTxt: async () => {
      throw Object.assign(new Error("no record"), { code: "ENOTFOUND" });
    },
    fetch: offline,
  });
});

afterAll(async () => {
  setVerificationDeps(undefined);
});

function credentialsFor(mode: AuthMode): Record<string, string> {
  switch (mode) {
    case "rich":
      return rich.headers;
    case "poor":
      return poor.headers;
    case "limited":
      return limited.headers;
    case "none":
      return {};
    case "wrong-secret":
      return { "x-api-key": rich.key, "x-api-secret": `${rich.secret.slice(0, -4)}AAAA` };
    case "garbage":
      return { "x-api-key": `${rich.key}\u00e9`, "x-api-secret": "\u00ff".repeat(300) };
    case "bearer":
      return { authorization: `Bearer ${rich.key}:${rich.secret}` };
  }
}

async function ledgerSnapshot(accountIds: string[]) {
  const balances = await handle.db
    .select({ id: accounts.id, balance: accounts.creditBalance })
    .from(accounts)
    .where(inArray(accounts.id, accountIds));
  const [last] = await handle.db.select({ id: max(creditLedger.id) }).from(creditLedger);
  return { balances: new Map(balances.map((b) => [b.id, b.balance])), lastLedgerId: Number(last?.id ?? 0) };
}

/** Every generated request, shuffled so that concurrent batches mix endpoints. */
function generateRequests(): FuzzRequest[] {
  const targets = fuzzTargets();
  const samples: FuzzRequest[] = [];
  targets.forEach((target, i) => {
    if (target.mcp) return;
    samples.push(...fc.sample(targetRequest(target), { numRuns: PER_TARGET, seed: SEED + i }));
  });
  samples.push(...fc.sample(mcpRequest, { numRuns: MCP_REQUESTS, seed: SEED + 101 }));
  samples.push(...fc.sample(unknownPathRequest, { numRuns: UNKNOWN_PATHS, seed: SEED + 102 }));
  samples.push(...fc.sample(oversizeHeaderRequest, { numRuns: OVERSIZE, seed: SEED + 103 }));
  const order = fc.sample(fc.double({ min: 0, max: 1, noNaN: true }), {
    numRuns: samples.length,
    seed: SEED,
  });
  return samples
    .map((s, i) => ({ s, k: order[i]! }))
    .sort((a, b) => a.k - b.k)
    .map(({ s }) => s);
}

test("10,000+ generated bad requests: no 5xx, every answer enveloped with its request id, no credit moved without a job", async () => {
  const targets = new Map(fuzzTargets().map((t) => [t.path, t]));
  const requests = generateRequests();
  expect(requests.length).toBeGreaterThanOrEqual(TOTAL);
  const ids = [rich.accountId, poor.accountId, limited.accountId];
  const before = await ledgerSnapshot(ids);

  const run = await runFuzz(api.url, requests, {
    targets,
    credentials: credentialsFor,
    concurrency: CONCURRENCY,
  });
  console.log(formatReport(run, requests.length, SEED));
  const { problems, createdJobs } = run;
  for (const target of targets.values()) {
    const labels = [...run.counts.keys()].filter(
      (l) => l === target.path || l.startsWith(`${target.path} (`),
    );
    expect(labels.length, `requests sent to ${target.path}`).toBeGreaterThan(0);
  }

  expect(problems.slice(0, 25), `${problems.length} problems`).toEqual([]);

  // Credits: every ledger row written during the run is the charge of a job an answer reported,
  // and each balance moved by exactly its new rows.
  const after = await ledgerSnapshot(ids);
  const rows = await handle.db
    .select({
      accountId: creditLedger.accountId,
      type: creditLedger.type,
      amount: creditLedger.amount,
      jobId: creditLedger.jobId,
    })
    .from(creditLedger)
    .where(and(inArray(creditLedger.accountId, ids), gt(creditLedger.id, before.lastLedgerId)));
  for (const row of rows) {
    expect(row.type).toBe("spend");
    expect(
      row.jobId && createdJobs.has(row.jobId),
      `ledger row without an accepted job: ${JSON.stringify(row)}`,
    ).toBe(true);
  }
  expect(rows.length).toBe(createdJobs.size);
  for (const id of ids) {
    const moved = rows.filter((r) => r.accountId === id).reduce((sum, r) => sum + r.amount, 0);
    expect(after.balances.get(id)! - before.balances.get(id)!, `balance of ${id}`).toBe(moved);
  }
  if (createdJobs.size) {
    const found = await handle.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(inArray(jobs.id, [...createdJobs]));
    expect(found.length).toBe(createdJobs.size);
  }
  expect(await handle.db.$count(jobs, eq(jobs.accountId, poor.accountId))).toBe(0);
}, 600_000);
