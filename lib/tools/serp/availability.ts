import type { DbOrTx } from "@/lib/db/client";
import { DATAFORSEO_ENV, readDataForSeoConfig } from "@/lib/providers/dataforseo";
import type { Availability, Env } from "../types";

export const SERP_NOT_CONFIGURED = `Live search results need the DataForSEO SERP API, which is not configured on this server: set ${DATAFORSEO_ENV.join(" and ")} (and DATAFORSEO_BASE_URL to override https://api.dataforseo.com).`;

/** Refused before any charge when DataForSEO is not configured: the service has no other source of SERPs. */
export async function checkAvailability(_db: DbOrTx, _input: unknown, env: Env): Promise<Availability> {
  return readDataForSeoConfig(env) ? { ok: true } : { ok: false, reason: SERP_NOT_CONFIGURED };
}
