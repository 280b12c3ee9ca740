import { requireRegisteredDomain } from "@/lib/accounts/domains";
import type { DbOrTx } from "@/lib/db/client";
import { type Env, listEngines } from "@/lib/providers/engines";
import type { EnginesResult } from "./api-schemas";
import { readVisibility, type VisibilityReport } from "./observations";

/** GET /engines: each engine, whether this server can ask it, and its model; never the key or its variable. */
export function describeEngines(env: Env = process.env): EnginesResult {
  return { engines: listEngines(env).map(({ name, configured, model }) => ({ name, configured, model })) };
}

/** GET /visibility: the rates of a domain registered on the account (403 FORBIDDEN_SCOPE otherwise). */
export async function getVisibility(
  db: DbOrTx,
  accountId: string,
  query: { domain: string; days: number },
): Promise<VisibilityReport> {
  const row = await requireRegisteredDomain(db, accountId, query.domain);
  return readVisibility(db, { accountId, domain: row.hostname, days: query.days });
}
