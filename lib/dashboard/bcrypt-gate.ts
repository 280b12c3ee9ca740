// bcrypt at cost 12 is ~250 ms of CPU per call. Unbounded, a burst of sign-ins (or of sign-ups) would take
// every core from the requests the service exists for; a small semaphore keeps that work to a few calls.

/** bcrypt calls that may run at once in this process; the rest wait their turn. */
export const BCRYPT_CONCURRENCY = 4;

let active = 0;
const waiting: (() => void)[] = [];

/** Runs `work` (a bcrypt hash or compare) once one of the BCRYPT_CONCURRENCY slots is free. */
export async function withBcryptSlot<T>(work: () => Promise<T>): Promise<T> {
  if (active >= BCRYPT_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else active++;
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next waiter, so a newcomer cannot overtake the queue.
    const next = waiting.shift();
    if (next) next();
    else active--;
  }
}
