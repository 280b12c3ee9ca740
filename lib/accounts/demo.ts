import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { accounts } from "@/lib/db/schema";
import { authenticateKey, rotateKeyPair } from "@/lib/keys/keys";
import { createAccount } from "./accounts";
import { registerDomain } from "./domains";

const DEMO_EMAIL = "demo@example.com";
export const DEMO_DOMAIN = "demo.example.com";

export interface DemoCredentials {
  accountId: string;
  email: string;
  domain: string;
  apiKey: string;
  apiSecret: string;
}

/**
 * The demo account for a local run: created once, with a registered domain (its traffic is tracking's to
 * seed: see lib/tracking's demo workspace). Its secret is kept in a
 * local file beside the embedded database (the database keeps only its hash) so a restart can print it again.
 */
export async function ensureDemoAccount(
  db: Db,
  credentialsFile: string,
): Promise<DemoCredentials & { created: boolean; domainId: string }> {
  const saved: DemoCredentials | null = existsSync(credentialsFile)
    ? (JSON.parse(readFileSync(credentialsFile, "utf8")) as DemoCredentials)
    : null;
  let [demo] = await db.select().from(accounts).where(eq(accounts.isDemo, true)).limit(1);
  let created = false;
  if (!demo) {
    demo = (await createAccount(db, { ownerEmail: DEMO_EMAIL, name: "Demo account", isDemo: true })).account;
    created = true;
  }
  const demoDomain = await registerDomain(db, demo.id, DEMO_DOMAIN);
  if (saved && saved.accountId === demo.id && (await authenticateKey(db, saved.apiKey, saved.apiSecret))) {
    return { ...saved, created, domainId: demoDomain.id };
  }
  // First start, or the demo key was rotated elsewhere: issue a pair and remember it.
  const key = await rotateKeyPair(db, demo.id);
  const creds: DemoCredentials = {
    accountId: demo.id,
    email: DEMO_EMAIL,
    domain: DEMO_DOMAIN,
    apiKey: key.keyId,
    apiSecret: key.secret,
  };
  mkdirSync(path.dirname(credentialsFile), { recursive: true });
  writeFileSync(credentialsFile, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  return { ...creds, created, domainId: demoDomain.id };
}
