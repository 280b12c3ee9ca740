import { searchconsole } from "@googleapis/searchconsole";
import type { OAuth2Client } from "google-auth-library";
import { type GoogleConfig, GoogleError } from "./config";
import { toGoogleError } from "./oauth";

const SEARCH_CONSOLE_DIMENSIONS = ["query", "page", "country", "device", "date"] as const;
export type SearchConsoleDimension = (typeof SEARCH_CONSOLE_DIMENSIONS)[number];

export interface SearchAnalyticsRow {
  keys: string[];
  clicks: number;
  impressions: number;
  ctr: number;
  position: number;
}

function client(config: GoogleConfig, auth: OAuth2Client) {
  // The API package bundles its own google-auth-library types; the client is the same at run time.
  return searchconsole({ version: "v1", auth: auth as never, rootUrl: config.searchConsoleRootUrl });
}

/**
 * The Search Console property that covers `domain`: the domain property (`sc-domain:`) when the grant reaches
 * it, else a URL-prefix property of the domain or its www. twin. Unverified entries do not count.
 */
export async function findSearchConsoleSite(
  config: GoogleConfig,
  auth: OAuth2Client,
  domain: string,
  signal?: AbortSignal,
): Promise<string> {
  let entries: { siteUrl?: string | null; permissionLevel?: string | null }[];
  try {
    const res = await client(config, auth).sites.list({}, { signal });
    entries = res.data.siteEntry ?? [];
  } catch (err) {
    throw toGoogleError(err);
  }
  const usable = new Set(
    entries
      .filter((e) => e.siteUrl && e.permissionLevel !== "siteUnverifiedUser")
      .map((e) => e.siteUrl as string),
  );
  const bare = domain.replace(/^www\./, "");
  const candidates = [
    `sc-domain:${bare}`,
    `https://${domain}/`,
    `https://www.${bare}/`,
    `https://${bare}/`,
    `http://${domain}/`,
    `http://www.${bare}/`,
    `http://${bare}/`,
  ];
  const found = candidates.find((c) => usable.has(c));
  if (!found) {
    throw new GoogleError(
      "GOOGLE_NOT_FOUND",
      `The connected Google account has no verified Search Console property for ${domain} (looked for sc-domain:${bare} and its https:// and http:// URL prefixes).`,
    );
  }
  return found;
}

/** Clicks, impressions, CTR and position by the dimensions asked, over whole UTC days (Search Console's dates). */
export async function querySearchAnalytics(
  config: GoogleConfig,
  auth: OAuth2Client,
  q: {
    siteUrl: string;
    startDate: string;
    endDate: string;
    dimensions: SearchConsoleDimension[];
    rowLimit: number;
  },
  signal?: AbortSignal,
): Promise<SearchAnalyticsRow[]> {
  try {
    const res = await client(config, auth).searchanalytics.query(
      {
        siteUrl: q.siteUrl,
        requestBody: {
          startDate: q.startDate,
          endDate: q.endDate,
          dimensions: q.dimensions,
          rowLimit: q.rowLimit,
          type: "web",
          dataState: "final",
        },
      },
      { signal },
    );
    return (res.data.rows ?? []).map((r) => ({
      keys: r.keys ?? [],
      clicks: r.clicks ?? 0,
      impressions: r.impressions ?? 0,
      ctr: r.ctr ?? 0,
      position: r.position ?? 0,
    }));
  } catch (err) {
    throw toGoogleError(err);
  }
}
