import { eq } from "drizzle-orm";
import { createAccount } from "@/lib/accounts/accounts";
import { registerDomain } from "@/lib/accounts/domains";
import { grantCredits } from "@/lib/credits/credits";
import type { Db } from "@/lib/db/client";
import { accounts, apiKeys } from "@/lib/db/schema";
import { keysChanged } from "@/lib/keys/key-cache";
import { rotateKeyPair } from "@/lib/keys/keys";

let counter = 0;

export interface TestAccount {
  accountId: string;
  email: string;
  key: string;
  secret: string;
  headers: Record<string, string>;
}

/** An account with a key pair (and optionally domains, extra credits, a rate limit) for API tests. */
export async function createTestAccount(
  db: Db,
  opts: { credits?: number; domains?: string[]; rateLimitPerMinute?: number } = {},
): Promise<TestAccount> {
  const email = `user${++counter}-${process.pid}@example.com`;
  const { account, user } = await createAccount(db, { ownerEmail: email });
  const extra = (opts.credits ?? 100) - 100;
  if (extra > 0) await grantCredits(db, account.id, extra, { description: "test grant" });
  if (extra < 0) {
    // Spend down to the asked balance through the ledger, keeping balance = sum(ledger).
    await db.transaction(async (tx) => {
      const { addCredits } = await import("@/lib/credits/credits");
      await addCredits(tx, account.id, extra, "adjustment", "test adjustment");
    });
  }
  for (const d of opts.domains ?? []) await registerDomain(db, account.id, d);
  const pair = await rotateKeyPair(db, account.id, {
    createdByUserId: user.id,
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 10_000,
  });
  return {
    accountId: account.id,
    email,
    key: pair.keyId,
    secret: pair.secret,
    headers: { "x-api-key": pair.keyId, "x-api-secret": pair.secret },
  };
}

export async function balanceOf(db: Db, accountId: string): Promise<number> {
  const [row] = await db
    .select({ b: accounts.creditBalance })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row!.b;
}

export async function setKeyRateLimit(db: Db, keyId: string, limit: number | null) {
  await db.update(apiKeys).set({ rateLimitPerMinute: limit }).where(eq(apiKeys.keyId, keyId));
  // As an operator's change would: the trigger tells other processes, this process forgets at once.
  keysChanged();
}
