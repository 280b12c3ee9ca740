import { z } from "zod";

/** The Chrome UX Report API's public endpoint; CRUX_BASE_URL overrides it (tests, proxies). */
export const DEFAULT_CRUX_BASE_URL = "https://chromeuxreport.googleapis.com";

export const CRUX_METRICS = [
  "largest_contentful_paint",
  "interaction_to_next_paint",
  "cumulative_layout_shift",
  "first_contentful_paint",
  "experimental_time_to_first_byte",
] as const;
export type CruxMetricName = (typeof CRUX_METRICS)[number];
export type CruxFormFactor = "PHONE" | "DESKTOP" | "TABLET";

// CLS arrives as strings ("0.05"), the timings as integers; both are read as numbers.
const numeric = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]).transform(Number);

const cruxMetric = z.object({
  histogram: z
    .array(z.object({ start: numeric, end: numeric.optional(), density: z.number().optional() }))
    .optional(),
  percentiles: z.object({ p75: numeric }).optional(),
});

const cruxDate = z.object({ year: z.number(), month: z.number(), day: z.number() });

/** The queryRecord answer, as much of it as the service reads. */
const cruxResponse = z.object({
  record: z.object({
    key: z.object({
      url: z.string().optional(),
      origin: z.string().optional(),
      formFactor: z.string().optional(),
    }),
    metrics: z.record(z.string(), cruxMetric),
    collectionPeriod: z.object({ firstDate: cruxDate, lastDate: cruxDate }).optional(),
  }),
  urlNormalizationDetails: z.object({ originalUrl: z.string(), normalizedUrl: z.string() }).optional(),
});

export interface CruxMetric {
  p75: number;
  histogram: { start: number; end: number | null; density: number }[];
}

export interface CruxRecord {
  level: "url" | "origin";
  /** The URL or origin CrUX answered for (after its own normalisation). */
  key: string;
  formFactor: CruxFormFactor;
  collectionPeriod: { firstDate: string; lastDate: string } | null;
  metrics: Partial<Record<CruxMetricName, CruxMetric>>;
}

export type CruxLookup =
  | { ok: true; record: CruxRecord; urlMissing: boolean }
  | { ok: false; reason: string; status?: number };

export interface CruxConfig {
  apiKey: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Reads CRUX_API_KEY and CRUX_BASE_URL; null when no key is configured. */
export function readCruxConfig(env: Record<string, string | undefined> = process.env): CruxConfig | null {
  const apiKey = env.CRUX_API_KEY?.trim();
  if (!apiKey) return null;
  return { apiKey, baseUrl: env.CRUX_BASE_URL?.trim() || DEFAULT_CRUX_BASE_URL };
}

/**
 * Field data for `url` on `formFactor`: the page's own record, or its origin's when CrUX has none for
 * the page (404), saying so. Never throws for an answer of the API; the reason comes back instead.
 */
export async function queryCruxRecord(
  config: CruxConfig,
  url: string,
  formFactor: CruxFormFactor,
): Promise<CruxLookup> {
  const page = await postQuery(config, { url, formFactor, metrics: [...CRUX_METRICS] });
  if (page.kind === "record")
    return { ok: true, record: toRecord(page.body, "url", formFactor), urlMissing: false };
  if (page.kind === "error") return { ok: false, reason: page.reason, status: page.status };

  const origin = new URL(url).origin;
  const site = await postQuery(config, { origin, formFactor, metrics: [...CRUX_METRICS] });
  if (site.kind === "record")
    return { ok: true, record: toRecord(site.body, "origin", formFactor), urlMissing: true };
  if (site.kind === "error") return { ok: false, reason: site.reason, status: site.status };
  return {
    ok: false,
    status: 404,
    reason: `The Chrome UX Report has no ${formFactor.toLowerCase()} data for this page or its origin (${origin}); too few Chrome users visit it to publish field data.`,
  };
}

type QueryOutcome =
  | { kind: "record"; body: z.infer<typeof cruxResponse> }
  | { kind: "not-found" }
  | { kind: "error"; reason: string; status?: number };

async function postQuery(config: CruxConfig, body: Record<string, unknown>): Promise<QueryOutcome> {
  const base = (config.baseUrl ?? DEFAULT_CRUX_BASE_URL).replace(/\/+$/, "");
  const endpoint = `${base}/v1/records:queryRecord?key=${encodeURIComponent(config.apiKey)}`;
  const signals = [AbortSignal.timeout(config.timeoutMs ?? 10_000)];
  if (config.signal) signals.push(config.signal);
  let res: Response;
  try {
    res = await (config.fetch ?? fetch)(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === "TimeoutError";
    return {
      kind: "error",
      reason: timedOut
        ? "The Chrome UX Report API did not answer in time."
        : "The Chrome UX Report API could not be reached.",
    };
  }
  const text = await res.text();
  if (res.status === 404) return { kind: "not-found" };
  if (!res.ok) {
    return {
      kind: "error",
      status: res.status,
      reason: `The Chrome UX Report API answered HTTP ${res.status}${describeError(text)}`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      kind: "error",
      status: res.status,
      reason: "The Chrome UX Report API answered with something other than JSON.",
    };
  }
  const parsed = cruxResponse.safeParse(json);
  if (!parsed.success) {
    return {
      kind: "error",
      status: res.status,
      reason: "The Chrome UX Report API answered in an unexpected format.",
    };
  }
  return { kind: "record", body: parsed.data };
}

/** The `error.message` of Google's error envelope, when there is one. */
function describeError(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message !== "string" || !message) return ".";
    const trimmed = message.slice(0, 200);
    return `: ${trimmed}${/[.!?]$/.test(trimmed) ? "" : "."}`;
  } catch {
    return ".";
  }
}

function toRecord(
  body: z.infer<typeof cruxResponse>,
  level: "url" | "origin",
  formFactor: CruxFormFactor,
): CruxRecord {
  const { record } = body;
  const metrics: CruxRecord["metrics"] = {};
  for (const name of CRUX_METRICS) {
    const metric = record.metrics[name];
    const p75 = metric?.percentiles?.p75;
    if (!metric || p75 === undefined || !Number.isFinite(p75)) continue;
    metrics[name] = {
      p75,
      histogram: (metric.histogram ?? []).map((bin) => ({
        start: bin.start,
        end: bin.end ?? null,
        density: bin.density ?? 0,
      })),
    };
  }
  const period = record.collectionPeriod;
  return {
    level,
    key: record.key.url ?? record.key.origin ?? "",
    formFactor,
    collectionPeriod: period
      ? { firstDate: formatDate(period.firstDate), lastDate: formatDate(period.lastDate) }
      : null,
    metrics,
  };
}

function formatDate(date: { year: number; month: number; day: number }): string {
  return `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}
