import { readFileSync } from "node:fs";

export interface E2EAccount {
  accountId: string;
  key: string;
  secret: string;
  domain: string;
}

/** Accounts seeded by e2e/serve.ts before the server started. */
export function e2eAccount(
  name: "main" | "other" | "limited" | "newman",
): E2EAccount & { headers: Record<string, string> } {
  const all = JSON.parse(readFileSync("reports/e2e-accounts.json", "utf8")) as Record<string, E2EAccount>;
  const acct = all[name]!;
  return { ...acct, headers: { "x-api-key": acct.key, "x-api-secret": acct.secret } };
}
