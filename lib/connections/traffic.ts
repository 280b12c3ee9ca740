import type { DbOrTx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { guardedFetch } from "@/lib/fetch";
import type { GuardedFetch } from "@/lib/fetch/types";
import { runGa4Report } from "@/lib/providers/google";
import { PlausibleError, queryPlausible, readPlausibleConfig } from "@/lib/providers/plausible/client";
import { engineFromSource } from "@/lib/tracking/catalog/ai-referrers";
import type { TrafficResult } from "./api-schemas";
import { dayWindow, fromCompactDate } from "./dates";
import { requireDomain, withGoogle } from "./google";
import {
  CONNECTIONS_PAGE,
  type Env,
  findConnection,
  markRevoked,
  openSecret,
  reconnectRequired,
} from "./store";

export interface TrafficDeps {
  /** Outbound HTTP to a Plausible instance (the guarded fetcher by default). */
  fetch?: GuardedFetch;
  now?: Date;
}

/** Visits per day and source, the raw material every figure below is summed from. */
interface SourceDay {
  date: string;
  source: string;
  visits: number;
}

function summarise(
  base: Pick<TrafficResult, "domain" | "source" | "property" | "startDate" | "endDate">,
  totals: TrafficResult["totals"],
  bySourceDay: SourceDay[],
  topPages: TrafficResult["topPages"],
): TrafficResult {
  const sources = new Map<string, number>();
  const engines = new Map<string, number>();
  const days = new Map<string, { visits: number; aiVisits: number }>();
  for (const r of bySourceDay) {
    const engine = engineFromSource(r.source);
    sources.set(r.source, (sources.get(r.source) ?? 0) + r.visits);
    if (engine) engines.set(engine, (engines.get(engine) ?? 0) + r.visits);
    const day = days.get(r.date) ?? { visits: 0, aiVisits: 0 };
    day.visits += r.visits;
    if (engine) day.aiVisits += r.visits;
    days.set(r.date, day);
  }
  const aiVisits = [...engines.values()].reduce((s, v) => s + v, 0);
  return {
    ...base,
    totals,
    aiReferred: {
      visits: aiVisits,
      share: totals.visits > 0 ? Math.min(1, aiVisits / totals.visits) : 0,
      byEngine: [...engines]
        .map(([engine, visits]) => ({ engine, visits }))
        .sort((a, b) => b.visits - a.visits),
    },
    sources: [...sources]
      .map(([source, visits]) => ({ source, visits, aiEngine: engineFromSource(source) }))
      .sort((a, b) => b.visits - a.visits || a.source.localeCompare(b.source))
      .slice(0, 25),
    topPages,
    daily: [...days].map(([date, d]) => ({ date, ...d })).sort((a, b) => a.date.localeCompare(b.date)),
  };
}

async function ga4Traffic(
  db: DbOrTx,
  env: Env,
  accountId: string,
  domain: string,
  window: { startDate: string; endDate: string },
): Promise<TrafficResult> {
  return withGoogle(db, env, accountId, "GA4 traffic", async (client, config, row) => {
    const property = row.settings.ga4Properties?.[domain];
    if (!property) throw ga4PropertyMissing(domain);
    const [totals, bySource, pages] = await Promise.all([
      runGa4Report(config, client, {
        property,
        ...window,
        dimensions: [],
        metrics: ["sessions", "totalUsers", "screenPageViews"],
      }),
      runGa4Report(config, client, {
        property,
        ...window,
        dimensions: ["date", "sessionSource"],
        metrics: ["sessions"],
        limit: 10_000,
      }),
      runGa4Report(config, client, {
        property,
        ...window,
        dimensions: ["pagePath"],
        metrics: ["screenPageViews"],
        limit: 10,
        orderByMetric: "screenPageViews",
      }),
    ]);
    const [sessions = 0, users = 0, views = 0] = totals.rows[0]?.metrics ?? [];
    return summarise(
      { domain, source: "ga4", property, ...window },
      { visits: sessions, visitors: users, pageviews: views },
      bySource.rows.map((r) => ({
        date: fromCompactDate(r.dimensions[0] ?? ""),
        source: r.dimensions[1] ?? "(not set)",
        visits: r.metrics[0] ?? 0,
      })),
      pages.rows.map((r) => ({ path: r.dimensions[0] ?? "", pageviews: r.metrics[0] ?? 0 })),
    );
  });
}

async function plausibleTraffic(
  db: DbOrTx,
  env: Env,
  accountId: string,
  domain: string,
  window: { startDate: string; endDate: string },
  fetcher: GuardedFetch,
): Promise<TrafficResult> {
  const row = await findConnection(db, accountId, "plausible");
  if (!row) throw analyticsNotConnected(domain);
  if (row.status === "revoked") throw reconnectRequired("plausible", row.lastError);
  const { apiKey } = openSecret<{ apiKey: string }>(env, row);
  const conn = readPlausibleConfig({ apiKey, baseUrl: row.settings.baseUrl });
  if (!conn) throw reconnectRequired("plausible", row.lastError);
  // Plausible sites are named by their domain as added there, usually without www.
  const site = domain.replace(/^www\./, "");
  const date_range: [string, string] = [window.startDate, window.endDate];
  try {
    const [totals, bySource, pages] = await Promise.all([
      queryPlausible(fetcher, conn, {
        site_id: site,
        metrics: ["visits", "visitors", "pageviews"],
        date_range,
      }),
      queryPlausible(fetcher, conn, {
        site_id: site,
        metrics: ["visits"],
        date_range,
        dimensions: ["time:day", "visit:source"],
        pagination: { limit: 10_000 },
      }),
      queryPlausible(fetcher, conn, {
        site_id: site,
        metrics: ["pageviews"],
        date_range,
        dimensions: ["event:page"],
        order_by: [["pageviews", "desc"]],
        pagination: { limit: 10 },
      }),
    ]);
    const [visits = 0, visitors = 0, pageviews = 0] = totals.results[0]?.metrics ?? [];
    return summarise(
      { domain, source: "plausible", property: site, ...window },
      { visits, visitors, pageviews },
      bySource.results.map((r) => ({
        date: (r.dimensions[0] ?? "").slice(0, 10),
        source: r.dimensions[1] ?? "Direct / None",
        visits: r.metrics[0] ?? 0,
      })),
      pages.results.map((r) => ({ path: r.dimensions[0] ?? "", pageviews: r.metrics[0] ?? 0 })),
    );
  } catch (err) {
    if (err instanceof PlausibleError) {
      if (err.code === "PLAUSIBLE_AUTH_FAILED") {
        await markRevoked(db, row, err.message);
        throw reconnectRequired("plausible", err.message);
      }
      if (err.code === "PLAUSIBLE_INVALID_REQUEST") {
        throw new AppError(
          "VALIDATION_ERROR",
          `${err.message} (is ${site} a site of this Plausible account?)`,
          {
            reason: "plausible_invalid_request",
          },
        );
      }
      throw new AppError("INTERNAL_ERROR", err.message, { reason: "plausible_unavailable" });
    }
    if (err instanceof Error && err.name === "FetchError") {
      throw new AppError(
        "INTERNAL_ERROR",
        `Plausible at ${conn.baseUrl} could not be reached: ${err.message}`,
        {
          reason: "plausible_unreachable",
        },
      );
    }
    throw err;
  }
}

function ga4PropertyMissing(domain: string): AppError {
  return new AppError(
    "VALIDATION_ERROR",
    `No GA4 property is set for ${domain}: choose it on ${CONNECTIONS_PAGE}.`,
    { reason: "ga4_property_not_set", connectUrl: CONNECTIONS_PAGE },
  );
}

function analyticsNotConnected(domain: string): AppError {
  return new AppError(
    "VALIDATION_ERROR",
    `Traffic of ${domain} needs web analytics: connect Google (and set the domain's GA4 property) or Plausible on ${CONNECTIONS_PAGE}.`,
    { reason: "not_connected", connectUrl: CONNECTIONS_PAGE },
  );
}

/**
 * GET /analytics/traffic: visits, sources, top pages and the AI-referred visits of a registered domain, from
 * GA4 when a property is set for the domain, else from Plausible (or the `source` asked for).
 */
export async function getTraffic(
  db: DbOrTx,
  env: Env,
  accountId: string,
  q: { domain: string; days: number; source?: "ga4" | "plausible" },
  deps: TrafficDeps = {},
): Promise<TrafficResult> {
  const domain = await requireDomain(db, accountId, q.domain);
  const window = dayWindow(q.days, deps.now);
  let source = q.source;
  if (!source) {
    const google = await findConnection(db, accountId, "google");
    source = google?.settings.ga4Properties?.[domain] ? "ga4" : "plausible";
    if (source === "plausible" && !(await findConnection(db, accountId, "plausible"))) {
      throw analyticsNotConnected(domain);
    }
  }
  return source === "ga4"
    ? ga4Traffic(db, env, accountId, domain, window)
    : plausibleTraffic(db, env, accountId, domain, window, deps.fetch ?? guardedFetch);
}
