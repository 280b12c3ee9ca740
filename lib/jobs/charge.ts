import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { redactDbError } from "@/lib/db/errors";
import type { Job } from "@/lib/db/schema";
import { type ChargeParams, chargeMany, chargeOne, chargesWritten, pendingJob } from "./charge-statement";

/**
 * The charge, the pending job, its spend ledger row, the idempotency record and the runners' wake-up
 * (NOTIFY jobs_created, delivered on commit) in ONE statement: one round trip, and atomic like the
 * transaction it replaces. The conditional UPDATE is the guard (a balance never goes below zero); when it
 * matches nothing, nothing else is written and the answer is 402 with the balance.
 *
 * Charges of one account that arrive while its statement is in flight wait and then go together as one
 * statement (chargeMany): each still gets its own job, ledger row and balance after it, but the account row is
 * locked and flushed once per round trip instead of once per job (a busy account queued on that lock).
 */
export function chargeAndInsertJob(db: Db, p: ChargeParams): Promise<{ job: Job; balance: number }> {
  // A charge with an idempotency key (its record's unique key can fail the statement) or without a cost goes
  // alone; others queue behind the account's statement in flight and then go together.
  if (p.idempotency || p.cost <= 0) return chargeOne(db, p);
  let lanes = chargeLanes.get(db);
  if (!lanes) {
    lanes = new Map();
    chargeLanes.set(db, lanes);
  }
  let lane = lanes.get(p.accountId);
  if (!lane) {
    lane = { waiting: [], busy: false };
    lanes.set(p.accountId, lane);
  }
  const current = lane;
  const account = lanes;
  return new Promise((resolve, reject) => {
    current.waiting.push({ p, resolve, reject });
    if (!current.busy) void drainCharges(db, account, p.accountId, current);
  });
}

interface WaitingCharge {
  p: ChargeParams;
  resolve: (r: { job: Job; balance: number }) => void;
  reject: (err: unknown) => void;
}
interface ChargeLane {
  waiting: WaitingCharge[];
  busy: boolean;
}
const chargeLanes = new WeakMap<object, Map<string, ChargeLane>>();

/**
 * One account's charges, one statement at a time: the first alone, then whatever queued meanwhile as one
 * statement (chargeMany), so a busy account's row lock is taken once per round trip rather than once per job.
 */
async function drainCharges(db: Db, lanes: Map<string, ChargeLane>, accountId: string, lane: ChargeLane) {
  lane.busy = true;
  try {
    await drainLane(db, accountId, lane);
  } catch (err) {
    // Nothing above should throw; if it does, no caller is left waiting for ever.
    for (const w of lane.waiting.splice(0)) w.reject(err);
  } finally {
    lane.busy = false;
    // A charge that queued while this drain was finishing is not left behind.
    if (lane.waiting.length > 0) void drainCharges(db, lanes, accountId, lane);
    else lanes.delete(accountId);
  }
}

async function drainLane(db: Db, accountId: string, lane: ChargeLane) {
  while (lane.waiting.length > 0) {
    const batch = lane.waiting.splice(0);
    if (batch.length === 1) {
      await chargeOne(db, batch[0]!.p).then(batch[0]!.resolve, batch[0]!.reject);
      continue;
    }
    const ids = batch.map(() => randomUUID());
    let accepted: Map<string, { job: Job; balance: number }>;
    try {
      accepted = await chargeMany(
        db,
        accountId,
        batch.map((w, i) => ({ ...w.p, id: ids[i]! })),
      );
    } catch (err) {
      console.error("[jobs] batched charge failed", redactDbError(err));
      // The statement is atomic, but an error can also come after its commit (the connection lost on the way
      // back): what it wrote is read back, so a charge is never made twice; the rest are tried alone below.
      const written = await chargesWritten(db, ids).catch(() => null);
      if (!written) {
        for (const w of batch) w.reject(err);
        continue;
      }
      accepted = new Map();
      for (const row of written) {
        const w = batch[(ids as string[]).indexOf(row.id)]!;
        accepted.set(row.id, { job: pendingJob(row.id, w.p, row), balance: Number(row.balance_after) });
      }
    }
    // What the batch could not cover (a balance running out part-way) is tried alone: charged if it still
    // fits, 402 otherwise, exactly as if it had come by itself.
    await Promise.all(
      batch.map((w, i) => {
        const done = accepted.get(ids[i]!);
        if (done) return w.resolve(done);
        return chargeOne(db, w.p).then(w.resolve, w.reject);
      }),
    );
  }
}
