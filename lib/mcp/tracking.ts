import { describeEngines, getVisibility } from "@/lib/ai-visibility/report";
import type { Db } from "@/lib/db/client";
import { getPageFunnel, type PagesRequest } from "@/lib/funnel/page-funnel";
import { routeArgs } from "@/lib/routes/contract";
import { getTrackingPagesRoute } from "@/lib/routes/pages";
import { getCitationsRoute, getTrackingStatsRoute } from "@/lib/routes/tracking";
import { getVisibilityRoute, listEnginesRoute } from "@/lib/routes/visibility";
import { getCitations } from "@/lib/tracking/reports/citations-query";
import { getBotStats } from "@/lib/tracking/reports/stats";

// Both reads refuse a domain not registered on the account (FORBIDDEN_SCOPE). The arguments are the REST
// routes' declared query parameters as typed JSON (numbers are numbers), with the same bounds and defaults.
export const trackingInputs = {
  botStats: routeArgs(getTrackingStatsRoute),
  citations: routeArgs(getCitationsRoute),
  pages: routeArgs(getTrackingPagesRoute),
};

export async function readPageFunnel(db: Db, accountId: string, input: PagesRequest) {
  return getPageFunnel(db, process.env, accountId, input);
}

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
export const visibilityInput = routeArgs(getVisibilityRoute);
export const enginesInput = routeArgs(listEnginesRoute);

export async function readVisibilityReport(
  db: Db,
  accountId: string,
  input: { domain: string; days: number },
) {
  return getVisibility(db, accountId, input);
}

export { describeEngines };
