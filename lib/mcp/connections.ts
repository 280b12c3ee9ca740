import { searchConsoleQuery, trafficQuery } from "@/lib/connections/api-schemas";
import { getSearchConsoleQueries } from "@/lib/connections/search-console";
import { getTraffic } from "@/lib/connections/traffic";
import { jsonArgsFromQuery } from "@/lib/contract/query";
import type { Db } from "@/lib/db/client";

// The account's own Search Console and analytics: the REST routes' query parameters as typed JSON arguments.
export const connectionInputs = {
  searchConsole: jsonArgsFromQuery(searchConsoleQuery),
  traffic: jsonArgsFromQuery(trafficQuery),
};

export async function readSearchConsole(
  db: Db,
  accountId: string,
  input: Parameters<typeof getSearchConsoleQueries>[3],
) {
  return getSearchConsoleQueries(db, process.env, accountId, input);
}

export async function readTraffic(db: Db, accountId: string, input: Parameters<typeof getTraffic>[3]) {
  return getTraffic(db, process.env, accountId, input);
}
