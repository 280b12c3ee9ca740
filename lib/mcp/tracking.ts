import { visibilityQuery } from "@/lib/ai-visibility/api-schemas";
import { describeEngines, getVisibility } from "@/lib/ai-visibility/report";
import { jsonArgsFromQuery } from "@/lib/contract/query";
import type { Db } from "@/lib/db/client";
import { citationsQuery, trackingStatsQuery } from "@/lib/tracking/api-schemas";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { getBotStats } from "@/lib/tracking/reports/stats";

// Both reads refuse a domain not registered on the account (FORBIDDEN_SCOPE). The arguments are the
// REST routes' query parameters as typed JSON (numbers are numbers), with the same bounds and defaults.
export const trackingInputs = {
  botStats: jsonArgsFromQuery(trackingStatsQuery),
  citations: jsonArgsFromQuery(citationsQuery),
};

export async function readBotStats(db: Db, accountId: string, input: { domain: string }) {
  return getBotStats(db, accountId, input.domain);
}

export async function readCitations(
  db: Db,
  accountId: string,
  input: { domain: string; days: number; limit: number },
) {
  return getCitations(db, accountId, input);
}

// The AI engines and the visibility they observed: the REST routes' parameters as typed JSON arguments.
export const visibilityInput = jsonArgsFromQuery(visibilityQuery);

export async function readVisibilityReport(
  db: Db,
  accountId: string,
  input: { domain: string; days: number },
) {
  return getVisibility(db, accountId, input);
}

export { describeEngines };
