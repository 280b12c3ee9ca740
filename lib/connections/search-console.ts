import type { DbOrTx } from "@/lib/db/client";
import { findSearchConsoleSite, querySearchAnalytics } from "@/lib/providers/google";
import type { SearchConsoleQueryDimension, SearchConsoleResult } from "./api-schemas";
import { dayWindow } from "./dates";
import { requireDomain, withGoogle } from "./google";
import type { Env } from "./store";

export const ROW_LIMIT = 1000;

/** GET /search-console/queries: the domain's Search Console figures by the dimensions asked. */
export async function getSearchConsoleQueries(
  db: DbOrTx,
  env: Env,
  accountId: string,
  q: { domain: string; days: number; dimensions: SearchConsoleQueryDimension[] },
  now = new Date(),
): Promise<SearchConsoleResult> {
  const domain = await requireDomain(db, accountId, q.domain);
  const window = dayWindow(q.days, now);
  return withGoogle(db, env, accountId, "Search Console data", async (client, config) => {
    const property = await findSearchConsoleSite(config, client, domain);
    const [rows, totalRows] = await Promise.all([
      querySearchAnalytics(config, client, {
        siteUrl: property,
        ...window,
        dimensions: q.dimensions,
        rowLimit: ROW_LIMIT,
      }),
      // Without dimensions Search Console answers one row: the property's totals over the window.
      querySearchAnalytics(config, client, { siteUrl: property, ...window, dimensions: [], rowLimit: 1 }),
    ]);
    const total = totalRows[0];
    return {
      domain,
      property,
      ...window,
      dimensions: q.dimensions,
      totals: {
        clicks: Math.round(total?.clicks ?? 0),
        impressions: Math.round(total?.impressions ?? 0),
        ctr: total?.ctr ?? 0,
      },
      rows: rows
        .map((r) => ({
          keys: Object.fromEntries(q.dimensions.map((d, i) => [d, r.keys[i] ?? ""])),
          clicks: Math.round(r.clicks),
          impressions: Math.round(r.impressions),
          ctr: r.ctr,
          position: Math.round(r.position * 10) / 10,
        }))
        .sort((a, b) => b.clicks - a.clicks || b.impressions - a.impressions),
      source: "google-search-console" as const,
    };
  });
}
