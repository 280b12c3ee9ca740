import type { DbOrTx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { guardedFetch } from "@/lib/fetch";
import type { GuardedFetch } from "@/lib/fetch/types";
import {
  findSearchConsoleSite,
  querySearchAnalytics,
  readGoogleConfig,
  runGa4Report,
} from "@/lib/providers/google";
import { PlausibleError, queryPlausible, readPlausibleConfig } from "@/lib/providers/plausible/client";
import { withGoogle } from "./google";
import { CONNECTIONS_PAGE, type Env, findConnection, openSecret } from "./store";

/** The most pages one answer of Search Console (its API's limit) or an analytics report is asked for. */
const PAGE_ROWS = 25_000;

/** What a connected source says per page (path → figures), or why it says nothing. */
export interface PageFigures<T> {
  status: "connected" | "not_connected" | "reconnect_required" | "unavailable";
  source: string | null;
  property: string | null;
  message: string | null;
  /** Every page the source knows for the window was read (fewer rows than asked for). */
  complete: boolean;
  byPath: Map<string, T>;
}

const none = <T>(status: PageFigures<T>["status"], message: string): PageFigures<T> => ({
  status,
  source: null,
  property: null,
  message,
  complete: false,
  byPath: new Map(),
});

/** The path of a page URL of the domain (Search Console reports full URLs), query string dropped; else null. */
function pathOfPageUrl(url: string, hostname: string): string | null {
  try {
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    const bare = hostname.replace(/^www\./, "");
    if (host !== bare && host !== `www.${bare}`) return null;
    return pageKey(u.pathname || "/");
  } catch {
    return url.startsWith("/") ? pageKey(url.split("?")[0]!) : null;
  }
}

// A path a URL parser leaves as it is: no percent sign, no character it would escape, no dot segment.
const PLAIN_PATH = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|\/(?!\.))*$/;

/**
 * A page path in one form whichever source wrote it, so a page's figures meet: as a URL's path (non-ASCII and
 * spaces percent-encoded, escapes in upper case, dot segments resolved). Analytics may report "/café" where
 * access logs and Search Console hold "/caf%C3%A9".
 */
export function pageKey(path: string): string {
  if (PLAIN_PATH.test(path)) return path;
  try {
    return new URL(`https://page.invalid${path.startsWith("/") ? "" : "/"}${path}`).pathname.replace(
      /%[0-9a-f]{2}/gi,
      (hex) => hex.toUpperCase(),
    );
  } catch {
    return path;
  }
}

/** A refusal from a provider as a status the page funnel reports beside its own figures. */
function statusOf<T>(err: unknown, what: string): PageFigures<T> {
  if (err instanceof AppError) {
    const reason = (err.details as { reason?: string } | undefined)?.reason;
    if (reason === "not_connected")
      return none("not_connected", `${what} is not connected: connect it on ${CONNECTIONS_PAGE}.`);
    if (reason === "reconnect_required")
      return none("reconnect_required", `${what} needs to be connected again on ${CONNECTIONS_PAGE}.`);
    if (reason === "google_permission_denied")
      return none("unavailable", `The connected Google account may not read ${what} for this domain.`);
    if (reason === "google_property_not_found")
      return none(
        "unavailable",
        `${what} has no property for this domain that the connected account can read.`,
      );
  }
  return none("unavailable", `${what} could not be read just now; try again later.`);
}

/** Search Console impressions and clicks per page of the domain over the window. */
export async function searchConsoleByPage(
  db: DbOrTx,
  env: Env,
  accountId: string,
  hostname: string,
  window: { startDate: string; endDate: string },
): Promise<PageFigures<{ impressions: number; clicks: number }>> {
  const what = "Google Search Console";
  if (!readGoogleConfig(env))
    return none("not_connected", `${what} connections are not available on this service.`);
  if (!(await findConnection(db, accountId, "google")))
    return none("not_connected", `${what} is not connected: connect Google on ${CONNECTIONS_PAGE}.`);
  try {
    return await withGoogle(db, env, accountId, "Search Console data", async (client, config) => {
      const property = await findSearchConsoleSite(config, client, hostname);
      const rows = await querySearchAnalytics(config, client, {
        siteUrl: property,
        ...window,
        dimensions: ["page"],
        rowLimit: PAGE_ROWS,
      });
      const byPath = new Map<string, { impressions: number; clicks: number }>();
      for (const r of rows) {
        const path = pathOfPageUrl(r.keys[0] ?? "", hostname);
        if (path === null) continue;
        const prev = byPath.get(path) ?? { impressions: 0, clicks: 0 };
        prev.impressions += Math.round(r.impressions);
        prev.clicks += Math.round(r.clicks);
        byPath.set(path, prev);
      }
      return {
        status: "connected" as const,
        source: "google-search-console",
        property,
        message: null,
        complete: rows.length < PAGE_ROWS,
        byPath,
      };
    });
  } catch (err) {
    return statusOf(err, what);
  }
}

/** Analytics sessions per page over the window: GA4 when the domain has a property, else Plausible. */
export async function sessionsByPage(
  db: DbOrTx,
  env: Env,
  accountId: string,
  hostname: string,
  window: { startDate: string; endDate: string },
  fetcher: GuardedFetch = guardedFetch,
): Promise<PageFigures<number>> {
  const google = await findConnection(db, accountId, "google");
  const ga4Property = google?.settings.ga4Properties?.[hostname];
  if (google && ga4Property && readGoogleConfig(env)) {
    try {
      return await withGoogle(db, env, accountId, "GA4 traffic", async (client, config) => {
        const report = await runGa4Report(config, client, {
          property: ga4Property,
          ...window,
          dimensions: ["pagePath"],
          metrics: ["sessions"],
          limit: PAGE_ROWS,
        });
        const byPath = new Map<string, number>();
        for (const r of report.rows) {
          const path = pageKey((r.dimensions[0] ?? "").split("?")[0]!);
          byPath.set(path, (byPath.get(path) ?? 0) + Math.round(r.metrics[0] ?? 0));
        }
        return {
          status: "connected" as const,
          source: "ga4",
          property: ga4Property,
          message: null,
          complete: report.rows.length < PAGE_ROWS,
          byPath,
        };
      });
    } catch (err) {
      return statusOf(err, "Google Analytics");
    }
  }
  const plausible = await findConnection(db, accountId, "plausible");
  if (!plausible)
    return none(
      "not_connected",
      `Web analytics are not connected: connect Google (and choose the domain's GA4 property) or Plausible on ${CONNECTIONS_PAGE}.`,
    );
  if (plausible.status === "revoked")
    return none("reconnect_required", `Plausible needs to be connected again on ${CONNECTIONS_PAGE}.`);
  const site = hostname.replace(/^www\./, "");
  try {
    const { apiKey } = openSecret<{ apiKey: string }>(env, plausible);
    const conn = readPlausibleConfig({ apiKey, baseUrl: plausible.settings.baseUrl });
    if (!conn)
      return none("reconnect_required", `Plausible needs to be connected again on ${CONNECTIONS_PAGE}.`);
    const res = await queryPlausible(fetcher, conn, {
      site_id: site,
      metrics: ["visits"],
      date_range: [window.startDate, window.endDate],
      dimensions: ["event:page"],
      pagination: { limit: PAGE_ROWS },
    });
    const byPath = new Map<string, number>();
    for (const r of res.results) {
      const path = pageKey((r.dimensions[0] ?? "").split("?")[0]!);
      byPath.set(path, (byPath.get(path) ?? 0) + Math.round(r.metrics[0] ?? 0));
    }
    return {
      status: "connected",
      source: "plausible",
      property: site,
      message: null,
      complete: res.results.length < PAGE_ROWS,
      byPath,
    };
  } catch (err) {
    if (err instanceof PlausibleError && err.code === "PLAUSIBLE_AUTH_FAILED")
      return none("reconnect_required", `Plausible needs to be connected again on ${CONNECTIONS_PAGE}.`);
    return none("unavailable", "Plausible could not be read just now; try again later.");
  }
}
