import { expect, test } from "vitest";
import { CwvError } from "./errors";
import { acquireRunSlot, countActiveRuns, readRunLimit } from "./run-slots";

test("reads CWV_MAX_CONCURRENT_RUNS, one by default", () => {
  expect(readRunLimit({})).toBe(1);
  expect(readRunLimit({ CWV_MAX_CONCURRENT_RUNS: "3" })).toBe(3);
  expect(readRunLimit({ CWV_MAX_CONCURRENT_RUNS: "0" })).toBe(1);
  expect(readRunLimit({ CWV_MAX_CONCURRENT_RUNS: "two" })).toBe(1);
});

test("a second run waits until the first releases its slot", async () => {
  const signal = new AbortController().signal;
  const releaseFirst = await acquireRunSlot(1, signal);
  let secondStarted = false;
  const second = acquireRunSlot(1, signal).then((release) => {
    secondStarted = true;
    return release;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(secondStarted).toBe(false);
  expect(countActiveRuns()).toBe(1);
  releaseFirst();
  releaseFirst(); // a second call must not free someone else's slot
  const releaseSecond = await second;
  expect(secondStarted).toBe(true);
  expect(countActiveRuns()).toBe(1);
  releaseSecond();
  expect(countActiveRuns()).toBe(0);
});

test("a waiting run gives up with ABORTED when its signal fires", async () => {
  const hold = await acquireRunSlot(1, new AbortController().signal);
  const controller = new AbortController();
  const waiting = acquireRunSlot(1, controller.signal);
  controller.abort();
  await expect(waiting).rejects.toMatchObject({ code: "ABORTED" });
  await expect(waiting).rejects.toBeInstanceOf(CwvError);
  hold();
  expect(countActiveRuns()).toBe(0);
});

test("a higher limit lets runs share", async () => {
  const signal = new AbortController().signal;
  const a = await acquireRunSlot(2, signal);
  const b = await acquireRunSlot(2, signal);
  expect(countActiveRuns()).toBe(2);
  a();
  b();
});
