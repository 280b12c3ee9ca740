import type { Db } from "@/lib/db/client";
import type { EngineName } from "@/lib/providers/engine-types";
import { lockProviderClock, type ProviderClock, takeSlots } from "@/lib/scheduler/provider-limits";

/**
 * The latest a request may start after its slot. Slots of one provider are at least 60 s / rpm × 1.02 apart, so
 * any 60 s window holds the starts of slots from a span of 60 s plus the lateness: at most
 * ceil((60 s + lateness) / spacing) = ceil(rpm × (60 s + lateness) / 61.2 s), which stays within rpm while the
 * lateness is under 1.2 s. 0.8 s leaves 0.4 s for the request to reach the provider (the SDK builds it, the
 * connection carries it). A request that could not start in time is not sent: its answer goes back to the queue
 * (or the judge takes another slot).
 */
export const MAX_START_LATENESS_MS = 800;

/** A request slot of the database's clock in this process's: start no earlier than `notBefore`, no later than `startBy`. */
export interface LocalSlot {
  notBefore: number;
  startBy: number;
}

/**
 * The database read its clock (`clock.now`) at some instant between `clock.localFrom` and `clock.localTo` of this
 * process, so a slot `d` later on its clock falls between `localFrom + d` and `localTo + d` here: waiting for the
 * later bound never starts a request early, and starting by the earlier bound plus the lateness never starts it
 * late, whatever the two clocks' offset (only their rates are assumed equal).
 */
export function localSlot(
  slot: Date | string,
  clock: Pick<ProviderClock, "now" | "localFrom" | "localTo">,
): LocalSlot {
  const d = new Date(slot).getTime() - clock.now.getTime();
  return { notBefore: clock.localTo + d + 1, startBy: clock.localFrom + d + MAX_START_LATENESS_MS };
}

/**
 * Waits for the slot; true when the request may start now, false when the slot was missed (the process was too
 * busy or the wait was cut short by `signal`).
 */
export async function waitForSlot(slot: LocalSlot, signal?: AbortSignal): Promise<boolean> {
  const wait = slot.notBefore - Date.now();
  if (wait > 0) {
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, wait);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    });
  }
  if (signal?.aborted) return false;
  // setTimeout may fire a millisecond early: never start before the slot.
  while (Date.now() < slot.notBefore) await new Promise((r) => setTimeout(r, 1));
  return Date.now() <= slot.startBy;
}

/** One request slot on `engine`'s shared clock, after its Retry-After block if any, in this process's clock. */
async function takeSlot(db: Db, engine: EngineName, rpm: number): Promise<LocalSlot> {
  return db.transaction(async (tx) => {
    const clock = await lockProviderClock(tx, engine);
    const from =
      clock.blockedUntil && clock.blockedUntil > clock.start
        ? { ...clock, start: clock.blockedUntil }
        : clock;
    const [at] = await takeSlots(tx, engine, from, 1, rpm);
    return localSlot(at!, clock);
  });
}

/** Slots missed in a row before a caller gives up (the process too busy to start a request in time). */
const MAX_MISSED_SLOTS = 5;

/**
 * Takes a slot and waits for it, taking another when it was missed: "ok" when the request may start now, "missed"
 * after MAX_MISSED_SLOTS misses in a row, "stopped" when `signal` was aborted. `onMissed` counts the misses.
 */
export async function awaitSlot(
  db: Db,
  engine: EngineName,
  rpm: number,
  signal: AbortSignal,
  onMissed?: () => void,
): Promise<"ok" | "missed" | "stopped"> {
  for (let missed = 0; missed < MAX_MISSED_SLOTS; missed++) {
    const slot = await takeSlot(db, engine, rpm);
    const onTime = await waitForSlot(slot, signal);
    if (signal.aborted) return "stopped";
    if (onTime) return "ok";
    onMissed?.();
  }
  return "missed";
}
