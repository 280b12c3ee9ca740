import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Chrome UX Report API (`POST /v1/records:queryRecord?key=…`) answering in the API's own format:
 * a record per URL or origin, 404 NOT_FOUND for keys it has no data for, Google's error envelope otherwise.
 */
export interface FakeCrux {
  url: string;
  apiKey: string;
  requests: { key: string | null; body: Record<string, unknown> }[];
  /** Records by `url:<url>` or `origin:<origin>`. */
  records: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

const BINS = {
  lcp: [0, 2500, 4000],
  inp: [0, 200, 500],
  fcp: [0, 1800, 3000],
  ttfb: [0, 800, 1800],
} as const;

function timingMetric(bounds: readonly number[], p75: number, densities: [number, number, number]) {
  return {
    histogram: [
      { start: bounds[0], end: bounds[1], density: densities[0] },
      { start: bounds[1], end: bounds[2], density: densities[1] },
      { start: bounds[2], density: densities[2] },
    ],
    percentiles: { p75 },
  };
}

/** A record as the API returns it; CLS values are strings with two decimals, the timings integers. */
export function makeCruxRecord(
  key: { url?: string; origin?: string; formFactor: string },
  p75: { lcp: number; inp: number; cls: string; fcp: number; ttfb: number },
) {
  return {
    record: {
      key,
      metrics: {
        cumulative_layout_shift: {
          histogram: [
            { start: "0.00", end: "0.10", density: 0.8123 },
            { start: "0.10", end: "0.25", density: 0.1102 },
            { start: "0.25", density: 0.0775 },
          ],
          percentiles: { p75: p75.cls },
        },
        experimental_time_to_first_byte: timingMetric(BINS.ttfb, p75.ttfb, [0.6, 0.3, 0.1]),
        first_contentful_paint: timingMetric(BINS.fcp, p75.fcp, [0.7, 0.2, 0.1]),
        interaction_to_next_paint: timingMetric(BINS.inp, p75.inp, [0.55, 0.3, 0.15]),
        largest_contentful_paint: timingMetric(BINS.lcp, p75.lcp, [0.5, 0.3, 0.2]),
      },
      collectionPeriod: {
        firstDate: { year: 2026, month: 10, day: 25 },
        lastDate: { year: 2026, month: 11, day: 21 },
      },
    },
  };
}

function googleError(code: number, status: string, message: string) {
  return { error: { code, message, status } };
}

export async function startFakeCrux(apiKey = "test-crux-key"): Promise<FakeCrux> {
  const requests: FakeCrux["requests"] = [];
  const records = new Map<string, Record<string, unknown>>();
  const server = http.createServer((req, res) => {
    const reqUrl = new URL(req.url ?? "/", "http://crux");
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || reqUrl.pathname !== "/v1/records:queryRecord") {
        return send(404, googleError(404, "NOT_FOUND", "Requested entity was not found."));
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(400, googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received."));
      }
      requests.push({ key: reqUrl.searchParams.get("key"), body });
      if (reqUrl.searchParams.get("key") !== apiKey) {
        return send(
          400,
          googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key."),
        );
      }
      const lookup = typeof body.url === "string" ? `url:${body.url}` : `origin:${String(body.origin)}`;
      const record = records.get(lookup);
      if (!record) return send(404, googleError(404, "NOT_FOUND", "chrome ux report data not found"));
      send(200, record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    records,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
