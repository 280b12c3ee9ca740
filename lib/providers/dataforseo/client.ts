import type { RetryPolicy } from "../engine-types";
import type { Env } from "../env";
import { ProviderError } from "../provider-error";
import { parseRetryAfter, withRetries } from "../retry";

export type { Env };

export const DATAFORSEO_ENV = ["DATAFORSEO_LOGIN", "DATAFORSEO_PASSWORD"] as const;
const DATAFORSEO_DEFAULT_BASE_URL = "https://api.dataforseo.com";

export interface DataForSeoConfig {
  login: string;
  password: string;
  baseUrl: string;
}

/** The adapter's settings, or null when DataForSEO is not configured on this server. */
export function readDataForSeoConfig(env: Env = process.env): DataForSeoConfig | null {
  const login = env.DATAFORSEO_LOGIN?.trim();
  const password = env.DATAFORSEO_PASSWORD?.trim();
  if (!login || !password) return null;
  const baseUrl = (env.DATAFORSEO_BASE_URL?.trim() || DATAFORSEO_DEFAULT_BASE_URL).replace(/\/+$/, "");
  return { login, password, baseUrl };
}

import { DATAFORSEO_ERROR_CODES } from "@/lib/errors/job-failures";

export { DATAFORSEO_ERROR_CODES };
export type DataForSeoErrorCode = (typeof DATAFORSEO_ERROR_CODES)[number];

/** The failures a later call may not repeat: rate limits, DataForSEO's own errors, a lost connection. */
const RETRYABLE: readonly DataForSeoErrorCode[] = [
  "DATAFORSEO_RATE_LIMITED",
  "DATAFORSEO_SERVER_ERROR",
  "DATAFORSEO_UNREACHABLE",
];

/** A failed DataForSEO call; its code is also the job's failure code. */
export class DataForSeoError extends ProviderError<DataForSeoErrorCode> {
  constructor(
    code: DataForSeoErrorCode,
    message: string,
    /** DataForSEO's own status code (5-digit) or the HTTP status, when there was one. */
    readonly statusCode?: number,
    options: { retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super("dataforseo", code, message, {
      retryable: RETRYABLE.includes(code),
      status: statusCode,
      ...options,
    });
    this.name = "DataForSeoError";
  }
}

/**
 * DataForSEO answers HTTP 200 for nearly everything and puts the outcome in 5-digit `status_code`s, on the
 * envelope and again on each task. 20000 is success; 40102 ("No Search Results") is an empty answer, not a
 * failure, and is handled by the caller.
 */
export function classifyStatus(code: number): DataForSeoErrorCode | null {
  if (code >= 20000 && code < 30000) return null;
  if (code === 40100 || code === 40104) return "DATAFORSEO_AUTH_FAILED";
  if (code === 40101) return "DATAFORSEO_UPSTREAM_ERROR";
  if (code === 40202 || code === 40209) return "DATAFORSEO_RATE_LIMITED";
  if (code >= 40200 && code < 40300) return "DATAFORSEO_PAYMENT_REQUIRED";
  if (code >= 40400 && code < 40500) return "DATAFORSEO_NOT_FOUND";
  if (code >= 40000 && code < 50000) return "DATAFORSEO_INVALID_REQUEST";
  return "DATAFORSEO_SERVER_ERROR";
}

function classifyHttp(status: number): DataForSeoErrorCode {
  if (status === 401 || status === 403) return "DATAFORSEO_AUTH_FAILED";
  if (status === 402) return "DATAFORSEO_PAYMENT_REQUIRED";
  if (status === 404) return "DATAFORSEO_NOT_FOUND";
  if (status === 429) return "DATAFORSEO_RATE_LIMITED";
  if (status >= 500) return "DATAFORSEO_SERVER_ERROR";
  return "DATAFORSEO_INVALID_REQUEST";
}

const NO_RESULTS_STATUS = 40102;

interface Envelope<R> {
  version?: string;
  status_code: number;
  status_message: string;
  cost?: number;
  tasks_count?: number;
  tasks_error?: number;
  tasks?: {
    id: string;
    status_code: number;
    status_message: string;
    cost?: number;
    result_count?: number;
    path?: string[];
    data?: unknown;
    result: R[] | null;
  }[];
}

export interface TaskAnswer<R> {
  result: R[];
  /** USD DataForSEO charged for the task, as it reports it. */
  cost: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Outbound HTTP; default the global fetch. Provider hosts are fixed by configuration, not by customers. */
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Retries of a rate-limited call (default: up to 3 attempts, waits of at most 10 s). */
  retry?: Partial<RetryPolicy>;
}

/**
 * The retries of a DataForSEO call: only a rate limit is tried again (honouring Retry-After), since a task
 * that failed on DataForSEO's side may have been billed.
 */
const RATE_LIMIT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 10_000 };

/** POSTs one task to a live endpoint and returns its result array, or throws a DataForSeoError. */
export async function postLiveTask<R>(
  config: DataForSeoConfig,
  path: string,
  task: Record<string, unknown>,
  opts: CallOptions = {},
): Promise<TaskAnswer<R>> {
  const { value } = await withRetries(
    () => postOnce<R>(config, path, task, opts),
    (err) => {
      if (err instanceof DataForSeoError) return err;
      throw err;
    },
    {
      signal: opts.signal,
      policy: { ...RATE_LIMIT_RETRY, ...opts.retry },
      retryOn: (error) => error.code === "DATAFORSEO_RATE_LIMITED",
    },
  );
  return value;
}

async function postOnce<R>(
  config: DataForSeoConfig,
  path: string,
  task: Record<string, unknown>,
  opts: CallOptions,
): Promise<TaskAnswer<R>> {
  const doFetch = opts.fetch ?? fetch;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 60_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await doFetch(`${config.baseUrl}${path}`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${config.login}:${config.password}`).toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify([task]),
      signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new DataForSeoError(
      "DATAFORSEO_UNREACHABLE",
      `DataForSEO could not be reached: ${(err as Error).message}`,
      undefined,
      { cause: err },
    );
  }
  let body: Envelope<R> | null = null;
  try {
    body = (await res.json()) as Envelope<R>;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const message = body?.status_message ?? res.statusText;
    throw new DataForSeoError(
      classifyHttp(res.status),
      `DataForSEO answered HTTP ${res.status}: ${message}`,
      res.status,
      { retryAfterMs: parseRetryAfter(res.headers) },
    );
  }
  if (!body || typeof body.status_code !== "number") {
    throw new DataForSeoError("DATAFORSEO_BAD_RESPONSE", "DataForSEO answered with an unexpected body.");
  }
  const top = classifyStatus(body.status_code);
  if (top)
    throw new DataForSeoError(
      top,
      `DataForSEO: ${body.status_code} ${body.status_message}`,
      body.status_code,
    );
  const [first] = body.tasks ?? [];
  if (!first || typeof first.status_code !== "number") {
    throw new DataForSeoError("DATAFORSEO_BAD_RESPONSE", "DataForSEO answered without the task.");
  }
  if (first.status_code === NO_RESULTS_STATUS) return { result: [], cost: first.cost ?? 0 };
  const code = classifyStatus(first.status_code);
  if (code)
    throw new DataForSeoError(
      code,
      `DataForSEO: ${first.status_code} ${first.status_message}`,
      first.status_code,
    );
  return { result: first.result ?? [], cost: first.cost ?? 0 };
}
