import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { addCredits, findLedgerMismatches, grantCredits } from "@/lib/credits/credits";
import type { DbHandle } from "@/lib/db/client";
import { accounts, apiKeys, creditLedger } from "@/lib/db/schema";
import { hashSecret } from "@/lib/keys/keys";
import { dbTest } from "@/test/support/fixtures";
import { createTestAccount } from "../accounts";

const test = dbTest;
let handle: DbHandle;
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
});

describe("ledger invariant", () => {
  test("balance equals the sum of ledger amounts after grants and adjustments", async () => {
    const a = await createTestAccount(handle.db, { credits: 340 });
    await grantCredits(handle.db, a.accountId, 7, { type: "purchase", description: "purchase" });
    await handle.db.transaction((tx) => addCredits(tx, a.accountId, -47, "adjustment", "correction"));
    const [row] = await handle.db.select().from(accounts).where(eq(accounts.id, a.accountId));
    expect(row!.creditBalance).toBe(300);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("the database refuses a negative balance", async () => {
    const a = await createTestAccount(handle.db);
    await expect(
      handle.db.transaction((tx) => addCredits(tx, a.accountId, -101, "adjustment", "too much")),
    ).rejects.toThrow();
    const [row] = await handle.db.select().from(accounts).where(eq(accounts.id, a.accountId));
    expect(row!.creditBalance).toBe(100);
    expect(await findLedgerMismatches(handle.db)).toEqual([]);
  });

  test("a spend row must be negative and a grant positive", async () => {
    const a = await createTestAccount(handle.db);
    await expect(
      handle.db
        .insert(creditLedger)
        .values({ accountId: a.accountId, type: "spend", amount: 5, balanceAfter: 1, description: "x" }),
    ).rejects.toThrow();
    await expect(
      handle.db
        .insert(creditLedger)
        .values({ accountId: a.accountId, type: "grant", amount: -5, balanceAfter: 1, description: "x" }),
    ).rejects.toThrow();
  });

  test("the mismatch check finds a tampered balance", async () => {
    const a = await createTestAccount(handle.db);
    await handle.db.execute(
      sql`update accounts set credit_balance = credit_balance + 1 where id = ${a.accountId}`,
    );
    const mismatches = await findLedgerMismatches(handle.db);
    expect(mismatches.map((m) => m.account_id)).toEqual([a.accountId]);
    await handle.db.execute(
      sql`update accounts set credit_balance = credit_balance - 1 where id = ${a.accountId}`,
    );
  });
});

describe("key constraints", () => {
  test("one active key pair per account, and key ids are unique", async () => {
    const a = await createTestAccount(handle.db);
    await expect(
      handle.db.insert(apiKeys).values({
        accountId: a.accountId,
        keyId: "sk_live_second000000000000000",
        secretHash: hashSecret("x"),
      }),
    ).rejects.toThrow();
    const b = await createTestAccount(handle.db);
    await expect(
      handle.db
        .insert(apiKeys)
        .values({ accountId: b.accountId, keyId: a.key, secretHash: hashSecret("x"), revokedAt: new Date() }),
    ).rejects.toThrow();
  });

  test("the secret is stored only as its SHA-256 hash", async () => {
    const a = await createTestAccount(handle.db);
    const [row] = await handle.db.select().from(apiKeys).where(eq(apiKeys.keyId, a.key));
    expect(row!.secretHash).toBe(hashSecret(a.secret));
    expect(JSON.stringify(row)).not.toContain(a.secret);
  });
});
