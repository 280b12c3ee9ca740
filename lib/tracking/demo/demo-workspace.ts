import { type DemoCredentials, ensureDemoAccount } from "@/lib/accounts/demo";
import type { Db } from "@/lib/db/client";
import { seedDemoTraffic } from "./demo-traffic";

/**
 * The demo account with its domain and, once, its sample traffic: accounts knows nothing of tracking, so the
 * two are composed here, where tracking already depends on accounts.
 */
export async function ensureDemoWorkspace(
  db: Db,
  credentialsFile: string,
): Promise<DemoCredentials & { created: boolean }> {
  const { domainId, ...demo } = await ensureDemoAccount(db, credentialsFile);
  await seedDemoTraffic(db, domainId);
  return demo;
}
