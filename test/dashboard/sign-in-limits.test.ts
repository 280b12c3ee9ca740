import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { endAllSessions, sessionVersionCallback } from "@/lib/auth/session-version";
import { BCRYPT_CONCURRENCY, withBcryptSlot } from "@/lib/dashboard/bcrypt-gate";
import { changePassword } from "@/lib/dashboard/change-password";
import { FormError } from "@/lib/dashboard/errors";
import {
  ADDRESS_FREE_FAILURES,
  FIRST_WAIT_SECONDS,
  PAIR_FREE_FAILURES,
  SignInThrottledError,
} from "@/lib/dashboard/sign-in-throttle";
import { SIGN_UPS_PER_HOUR, signUp, verifyCredentials } from "@/lib/dashboard/signup";
import type { Db, DbHandle } from "@/lib/db/client";
import { dbTest } from "@/test/support/fixtures";

const test = dbTest;
let handle: DbHandle;
let db: Db;
let n = 0;
const email = () => `limits${++n}-${process.pid}@example.com`;
const PASSWORD = "correct horse battery";
const noWait = async () => {};

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
});

/** Moves every recorded failure `minutes` into the past, as if the client had waited. */
async function waitMinutes(minutes: number) {
  await db.execute(
    sql`update rate_limit_windows set window_start = window_start - make_interval(mins => ${minutes})`,
  );
}

const attempt = (address: string, password: string, ip: string) =>
  verifyCredentials(db, { email: address, password }, { ip, sleep: noWait });

async function throttledFor(promise: Promise<unknown>): Promise<number> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SignInThrottledError);
  return (err as SignInThrottledError).retryAfterSeconds;
}

describe("sign-in throttling", () => {
  test("guessing from one address never locks the owner out: another address with the right password gets in", async () => {
    const address = email();
    await signUp(db, { email: address, password: PASSWORD });
    for (let i = 0; i < 12; i++) {
      await attempt(address, `wrong guess ${i}!`, "198.51.100.10").catch((err) => {
        expect(err).toBeInstanceOf(SignInThrottledError);
      });
    }
    expect(await attempt(address, PASSWORD, "203.0.113.10")).toMatchObject({ email: address });
  }, 60_000);

  test("after the free failures each attempt must wait, longer each time; the right password works once waited", async () => {
    const address = email();
    const ip = "198.51.100.20";
    await signUp(db, { email: address, password: PASSWORD });
    for (let i = 0; i < PAIR_FREE_FAILURES; i++)
      expect(await attempt(address, `nope ${i} guess`, ip)).toBeNull();
    // The next attempt, even with the right password, must wait: no bcrypt work is done meanwhile.
    const first = await throttledFor(attempt(address, PASSWORD, ip));
    expect(first).toBeGreaterThan(FIRST_WAIT_SECONDS - 3);
    expect(first).toBeLessThanOrEqual(FIRST_WAIT_SECONDS);
    await waitMinutes(1);
    expect(await attempt(address, "another wrong one", ip)).toBeNull();
    const second = await throttledFor(attempt(address, PASSWORD, ip));
    expect(second).toBeGreaterThan(first);
    await waitMinutes(2);
    expect(await attempt(address, PASSWORD, ip)).toMatchObject({ email: address });
    // Success clears the pair's counter: a typo right after costs no wait.
    expect(await attempt(address, "one more typo!", ip)).toBeNull();
    expect(await attempt(address, PASSWORD, ip)).toMatchObject({ email: address });
  }, 60_000);

  test("one address guessing across many emails is slowed too; other addresses are not", async () => {
    const ip = "198.51.100.30";
    for (let i = 0; i < ADDRESS_FREE_FAILURES; i++) {
      expect(await attempt(email(), "some password", ip)).toBeNull();
    }
    await throttledFor(attempt(email(), "some password", ip));
    const owner = email();
    await signUp(db, { email: owner, password: PASSWORD });
    expect(await attempt(owner, PASSWORD, "203.0.113.30")).toMatchObject({ email: owner });
  }, 120_000);

  test("each wrong answer is held back a little longer", async () => {
    const address = email();
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
    };
    for (let i = 0; i < 3; i++) {
      await verifyCredentials(
        db,
        { email: address, password: "wrong password" },
        { ip: "198.51.100.40", sleep },
      );
    }
    expect(delays).toHaveLength(3);
    expect(delays[0]).toBeGreaterThan(0);
    expect(delays[1]).toBeGreaterThan(delays[0]!);
    expect(delays[2]).toBeGreaterThan(delays[1]!);
  }, 30_000);
});

test(`bcrypt work is capped at ${BCRYPT_CONCURRENCY} at once`, async () => {
  let active = 0;
  let peak = 0;
  const work = () =>
    withBcryptSlot(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      return 1;
    });
  const results = await Promise.all(Array.from({ length: 12 }, work));
  expect(results).toHaveLength(12);
  expect(peak).toBe(BCRYPT_CONCURRENCY);
  // Real sign-ins go through the gate: many at once all finish.
  const address = email();
  await signUp(db, { email: address, password: PASSWORD });
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) => attempt(address, PASSWORD, `203.0.113.${50 + i}`)),
  );
  expect(answers.every((a) => a?.email === address)).toBe(true);
}, 60_000);

test(`sign-up is limited to ${SIGN_UPS_PER_HOUR} per hour per client address`, async () => {
  const ip = "198.51.100.60";
  for (let i = 0; i < SIGN_UPS_PER_HOUR; i++)
    await signUp(db, { email: email(), password: PASSWORD }, { ip });
  await expect(signUp(db, { email: email(), password: PASSWORD }, { ip })).rejects.toBeInstanceOf(FormError);
  await expect(
    signUp(db, { email: email(), password: PASSWORD }, { ip: "203.0.113.60" }),
  ).resolves.toBeTruthy();
}, 60_000);

describe("session versions", () => {
  const jwt = () => sessionVersionCallback(db);

  test("sign-out ends every session: a token minted before it is refused", async () => {
    const { user } = await signUp(db, { email: email(), password: PASSWORD });
    const laptop = await jwt()({ token: { sub: user.id }, user: { id: user.id } });
    const phone = await jwt()({ token: { sub: user.id }, user: { id: user.id } });
    expect(laptop).toMatchObject({ sub: user.id, sv: 0 });
    expect(await jwt()({ token: laptop! })).toMatchObject({ sub: user.id });
    await endAllSessions(db, user.id);
    expect(await jwt()({ token: laptop! })).toBeNull();
    expect(await jwt()({ token: phone! })).toBeNull();
    // A fresh sign-in carries the new version and works.
    const again = await jwt()({ token: { sub: user.id }, user: { id: user.id } });
    expect(await jwt()({ token: again! })).toMatchObject({ sv: 1 });
  });

  test("changing the password ends old sessions; the old password stops working", async () => {
    const address = email();
    const { user } = await signUp(db, { email: address, password: PASSWORD });
    const old = await jwt()({ token: { sub: user.id }, user: { id: user.id } });
    await expect(
      changePassword(db, user.id, {
        currentPassword: "not the password",
        newPassword: "a new long password",
      }),
    ).rejects.toMatchObject({ field: "currentPassword" });
    await expect(
      changePassword(db, user.id, { currentPassword: PASSWORD, newPassword: "short" }),
    ).rejects.toMatchObject({ field: "newPassword" });
    // Refusals change nothing: the session still stands.
    expect(await jwt()({ token: old! })).not.toBeNull();
    await changePassword(db, user.id, { currentPassword: PASSWORD, newPassword: "a new long password" });
    expect(await jwt()({ token: old! })).toBeNull();
    expect(await attempt(address, PASSWORD, "203.0.113.70")).toBeNull();
    expect(await attempt(address, "a new long password", "203.0.113.70")).toMatchObject({ id: user.id });
  }, 30_000);

  test("a token for a user that no longer exists is refused", async () => {
    expect(await jwt()({ token: { sub: "no-such-user", sv: 0 } })).toBeNull();
  });
});
