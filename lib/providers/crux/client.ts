import { z } from "zod";
import type { Env } from "../env";
import { ProviderError } from "../provider-error";
import { parseRetryAfter } from "../retry";

/** The Chrome UX Report API's public endpoint; CRUX_BASE_URL overrides it (tests, proxies). */
const DEFAULT_CRUX_BASE_URL = "https://chromeuxreport.googleapis.com";

export const CRUX_METRICS = [
  "largest_contentful_paint",
  "interaction_to_next_paint",
  "cumulative_layout_shift",
  "first_contentful_paint",
  "experimental_time_to_first_byte",
] as const;
type CruxMetricName = (typeof CRUX_METRICS)[number];
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

type CruxErrorCode =
  /** Neither the page nor its origin has field data for the form factor. */
  | "CRUX_NO_DATA"
  | "CRUX_TIMEOUT"
  | "CRUX_UNREACHABLE"
  | "CRUX_RATE_LIMITED"
  /** The API refused the request or the key (400, 401, 403). */
  | "CRUX_REJECTED"
  | "CRUX_UNAVAILABLE"
  | "CRUX_BAD_RESPONSE";

const RETRYABLE: readonly CruxErrorCode[] = [
  "CRUX_TIMEOUT",
  "CRUX_UNREACHABLE",
  "CRUX_RATE_LIMITED",
  "CRUX_UNAVAILABLE",
];

/** Why a Chrome UX Report lookup gave no record; its message is the lookup's `reason`. */
class CruxError extends ProviderError<CruxErrorCode> {
  constructor(
    code: CruxErrorCode,
    message: string,
    options: { status?: number; retryAfterMs?: number } = {},
  ) {
    super("crux", code, message, { retryable: RETRYABLE.includes(code), ...options });
    this.name = "CruxError";
  }
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
export function readCruxConfig(env: Env = process.env): CruxConfig | null {
  const apiKey = env.CRUX_API_KEY?.trim();
  if (!apiKey) return null;
  return { apiKey, baseUrl: env.CRUX_BASE_URL?.trim() || DEFAULT_CRUX_BASE_URL };
}

/**
 * Field data for `url` on `formFactor`, as `fetchCruxRecord` finds it. Never throws for an answer of the API:
 * the CruxError's message comes back as the reason.
 */
export async function queryCruxRecord(
  config: CruxConfig,
  url: string,
  formFactor: CruxFormFactor,
): Promise<CruxLookup> {
  try {
    return { ok: true, ...(await fetchCruxRecord(config, url, formFactor)) };
  } catch (err) {
    if (!(err instanceof CruxError)) throw err;
    return { ok: false, reason: err.message, ...(err.status !== undefined ? { status: err.status } : {}) };
  }
}

/**
 * Field data for `url` on `formFactor`: the page's own record, or its origin's when CrUX has none for
 * the page (404), saying so. Throws a CruxError when the API answers with an error or has no data.
 */
export async function fetchCruxRecord(
  config: CruxConfig,
  url: string,
  formFactor: CruxFormFactor,
): Promise<{ record: CruxRecord; urlMissing: boolean }> {
  const page = await postQuery(config, { url, formFactor, metrics: [...CRUX_METRICS] });
  if (page.kind === "record") return { record: toRecord(page.body, "url", formFactor), urlMissing: false };
  if (page.kind === "error") throw page.error;

  const origin = new URL(url).origin;
  const site = await postQuery(config, { origin, formFactor, metrics: [...CRUX_METRICS] });
  if (site.kind === "record") return { record: toRecord(site.body, "origin", formFactor), urlMissing: true };
  if (site.kind === "error") throw site.error;
  throw new CruxError(
    "CRUX_NO_DATA",
    `The Chrome UX Report has no ${formFactor.toLowerCase()} data for this page or its origin (${origin}); too few Chrome users visit it to publish field data.`,
    { status: 404 },
  );
}

type QueryOutcome =
  | { kind: "record"; body: z.infer<typeof cruxResponse> }
  | { kind: "not-found" }
  | { kind: "error"; error: CruxError };

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
    const error = timedOut
      ? new CruxError("CRUX_TIMEOUT", "The Chrome UX Report API did not answer in time.")
      : new CruxError("CRUX_UNREACHABLE", "The Chrome UX Report API could not be reached.");
    return { kind: "error", error };
  }
  const text = await res.text();
  if (res.status === 404) return { kind: "not-found" };
  const status = res.status;
  if (!res.ok) {
    const code: CruxErrorCode =
      status === 429 ? "CRUX_RATE_LIMITED" : status >= 500 ? "CRUX_UNAVAILABLE" : "CRUX_REJECTED";
    const retryAfterMs = parseRetryAfter(res.headers);
    const message = `The Chrome UX Report API answered HTTP ${status}${describeError(text)}`;
    return {
      kind: "error",
      error: new CruxError(code, message, {
        status,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      }),
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const message = "The Chrome UX Report API answered with something other than JSON.";
    return { kind: "error", error: new CruxError("CRUX_BAD_RESPONSE", message, { status }) };
  }
  const parsed = cruxResponse.safeParse(json);
  if (!parsed.success) {
    const message = "The Chrome UX Report API answered in an unexpected format.";
    return { kind: "error", error: new CruxError("CRUX_BAD_RESPONSE", message, { status }) };
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
