import { BetaAnalyticsDataClient } from "@google-analytics/data";
import type { OAuth2Client } from "google-auth-library";
import type { GoogleConfig } from "./config";
import { toGoogleError } from "./oauth";

export interface Ga4Report {
  dimensions: string[];
  metrics: string[];
  rows: { dimensions: string[]; metrics: number[] }[];
}

/**
 * One GA4 Data API `runReport` through the official client in its REST mode (`fallback`), so the address
 * is an ordinary HTTPS origin a test can point at a local server.
 */
export async function runGa4Report(
  config: GoogleConfig,
  auth: OAuth2Client,
  req: {
    property: string;
    startDate: string;
    endDate: string;
    dimensions: string[];
    metrics: string[];
    limit?: number;
    orderByMetric?: string;
  },
): Promise<Ga4Report> {
  const url = config.analyticsDataUrl;
  const https = url.protocol === "https:";
  const client = new BetaAnalyticsDataClient({
    authClient: auth,
    fallback: true,
    apiEndpoint: url.hostname,
    port: url.port ? Number(url.port) : https ? 443 : 80,
    protocol: https ? "https" : "http",
  } as unknown as ConstructorParameters<typeof BetaAnalyticsDataClient>[0]);
  try {
    const [res] = await client.runReport({
      property: req.property,
      dateRanges: [{ startDate: req.startDate, endDate: req.endDate }],
      dimensions: req.dimensions.map((name) => ({ name })),
      metrics: req.metrics.map((name) => ({ name })),
      ...(req.limit ? { limit: req.limit } : {}),
      ...(req.orderByMetric ? { orderBys: [{ metric: { metricName: req.orderByMetric }, desc: true }] } : {}),
    });
    return {
      dimensions: (res.dimensionHeaders ?? []).map((h) => h.name ?? ""),
      metrics: (res.metricHeaders ?? []).map((h) => h.name ?? ""),
      rows: (res.rows ?? []).map((r) => ({
        dimensions: (r.dimensionValues ?? []).map((v) => v.value ?? ""),
        metrics: (r.metricValues ?? []).map((v) => Number(v.value ?? 0)),
      })),
    };
  } catch (err) {
    throw toGoogleError(err);
  } finally {
    await client.close().catch(() => {});
  }
}
