import { promises as dns } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, type Dispatcher, request } from "undici";
import {
  findAddressViolation,
  isIpLiteral,
  isMetadataHostname,
  type PrivateTargetPolicy,
  unbracket,
} from "./address-policy";
import { decodeBody, decodeText, readCapped } from "./body";
import { FetchError } from "./errors";
import type { GuardedFetch, GuardedFetchOptions, GuardedResponse, RedirectHop } from "./types";

/** Names the service to the sites it fetches; operators override it with FETCH_USER_AGENT. */
export const DEFAULT_USER_AGENT = "SiteAuditBot/1.0 (+https://example.com/bot)";

export interface ResolvedAddress {
  address: string;
  family: number;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardedFetchConfig {
  /** See PrivateTargetPolicy. Default false: public addresses only. */
  allowPrivateTargets?: PrivateTargetPolicy;
  /** Default: FETCH_USER_AGENT, read at call time, else DEFAULT_USER_AGENT. */
  userAgent?: string;
  /** Default: the system resolver (getaddrinfo). Tests inject names here. */
  resolver?: Resolver;
}

const DEFAULTS = { timeoutMs: 15_000, connectTimeoutMs: 5_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers the fetcher owns, or that must not leak to another origin after a redirect. */
const RESERVED_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "accept-encoding",
]);
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);
const CONNECT_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);
const TIMEOUT = Symbol("fetch-timeout");

export function resolveUserAgent(): string {
  return process.env.FETCH_USER_AGENT?.trim() || DEFAULT_USER_AGENT;
}

/** Reads ALLOW_PRIVATE_TARGETS: "true" lifts the address rule, "loopback" allows only loopback. */
export function readPrivateTargetPolicy(
  env: Record<string, string | undefined> = process.env,
): PrivateTargetPolicy {
  const value = env.ALLOW_PRIVATE_TARGETS;
  if (value === "true") return true;
  if (value === "loopback") return "loopback";
  return false;
}

export function createGuardedFetch(config: GuardedFetchConfig = {}): GuardedFetch {
  const policy = config.allowPrivateTargets ?? false;
  const resolver = config.resolver ?? resolveWithSystemDns;
  // One agent per connect timeout, so connections are pooled across calls of this fetcher.
  const agents = new Map<number, Agent>();

  // The address check runs inside the socket's own lookup: the connection goes to exactly the
  // addresses that passed, so a second DNS answer (rebinding) never gets a say.
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    lookupAllowed(hostname, resolver, policy).then(
      (addresses) => {
        const first = addresses[0]!;
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err) => callback(err),
    );
  }) as unknown as LookupFunction;

  function agentFor(connectTimeoutMs: number): Agent {
    let agent = agents.get(connectTimeoutMs);
    if (!agent) {
      agent = new Agent({ connect: { timeout: connectTimeoutMs, lookup } });
      agents.set(connectTimeoutMs, agent);
    }
    return agent;
  }

  return async (url, options = {}) => {
    const opts = { ...DEFAULTS, ...options };
    const userAgent = config.userAgent ?? resolveUserAgent();
    const started = performance.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMEOUT), opts.timeoutMs);
    const forwardAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) forwardAbort();
    options.signal?.addEventListener("abort", forwardAbort, { once: true });

    let current = parseTarget(url, policy);
    const origin = current.origin;
    try {
      const redirects: RedirectHop[] = [];
      const dispatcher = agentFor(opts.connectTimeoutMs);
      for (;;) {
        const headers = buildHeaders(options.headers, userAgent, current.origin !== origin);
        const res = await request(current.href, {
          method: opts.method ?? "GET",
          headers,
          ...(opts.method === "POST" && opts.body !== undefined ? { body: opts.body } : {}),
          dispatcher,
          signal: controller.signal,
        });
        const location = firstHeader(res.headers, "location");
        if (
          REDIRECT_STATUSES.has(res.statusCode) &&
          location &&
          opts.redirect !== "manual" &&
          opts.method !== "POST"
        ) {
          await res.body.dump();
          if (redirects.length >= opts.maxRedirects) {
            throw new FetchError(
              "TOO_MANY_REDIRECTS",
              `${url} redirected more than ${opts.maxRedirects} times; check for a redirect loop.`,
              { url, redirects: [...redirects.map((r) => r.url), current.href] },
            );
          }
          const next = parseTarget(resolveLocation(location, current), policy);
          redirects.push({ url: current.href, status: res.statusCode, location: next.href });
          current = next;
          continue;
        }
        return await buildResponse(url, current.href, res, redirects, opts, started);
      }
    } catch (err) {
      throw toFetchError(err, current, controller.signal, opts);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", forwardAbort);
    }
  };
}

const fetchers = new Map<string, GuardedFetch>();

/** The service's fetcher; ALLOW_PRIVATE_TARGETS and FETCH_USER_AGENT are read on every call. */
export const guardedFetch: GuardedFetch = (url, options) => {
  const policy = readPrivateTargetPolicy();
  const key = String(policy);
  let fetcher = fetchers.get(key);
  if (!fetcher) {
    fetcher = createGuardedFetch({ allowPrivateTargets: policy });
    fetchers.set(key, fetcher);
  }
  return fetcher(url, options);
};

/** Checks what can be checked without DNS: scheme, credentials, metadata names, IP literals. */
function parseTarget(raw: string, policy: PrivateTargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError("INVALID_URL", `"${truncate(raw)}" is not a valid URL.`, { url: truncate(raw) });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchError("INVALID_URL", `Only http and https URLs can be fetched, not ${url.protocol}.`, {
      url: url.href,
    });
  }
  if (url.username || url.password) {
    throw new FetchError("INVALID_URL", "URLs with a user name or password are not fetched.", {
      url: `${url.protocol}//${url.host}${url.pathname}`,
    });
  }
  url.hash = "";
  if (isMetadataHostname(url.hostname)) throw forbidden(url, url.hostname, "cloud metadata host");
  if (isIpLiteral(url.hostname)) {
    const violation = findAddressViolation(url.hostname, policy);
    if (violation) throw forbidden(url, unbracket(url.hostname), violation);
  }
  return url;
}

/** Resolves `hostname` and returns its addresses only when every one passes `policy` (the browser's proxy shares it). */
export async function lookupAllowed(hostname: string, resolver: Resolver, policy: PrivateTargetPolicy) {
  if (isMetadataHostname(hostname)) {
    throw new FetchError("TARGET_FORBIDDEN", `${hostname} is a cloud metadata host and is never fetched.`, {
      hostname,
    });
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(hostname);
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw new FetchError("DNS_ERROR", `The host name ${hostname} could not be resolved.`, { hostname });
  }
  if (addresses.length === 0) {
    throw new FetchError("DNS_ERROR", `The host name ${hostname} has no address records.`, { hostname });
  }
  // Every answer must pass: the socket may try any of them (Happy Eyeballs).
  for (const { address } of addresses) {
    const violation = findAddressViolation(address, policy);
    if (violation) {
      throw new FetchError(
        "TARGET_FORBIDDEN",
        `${hostname} resolves to ${address}, a ${violation}; only public addresses are fetched.`,
        { hostname, address, reason: violation },
      );
    }
  }
  return addresses;
}

export async function resolveWithSystemDns(hostname: string): Promise<ResolvedAddress[]> {
  try {
    return await dns.lookup(hostname, { all: true, verbatim: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FetchError(
      "DNS_ERROR",
      `The host name ${hostname} could not be resolved; check the domain and its DNS records.`,
      { hostname, cause: code },
    );
  }
}

function buildHeaders(extra: Record<string, string> | undefined, userAgent: string, crossOrigin: boolean) {
  const headers: Record<string, string> = {
    "user-agent": userAgent,
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5",
  };
  for (const [name, value] of Object.entries(extra ?? {})) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || (crossOrigin && CREDENTIAL_HEADERS.has(lower))) continue;
    headers[lower] = value;
  }
  headers["accept-encoding"] = "gzip, deflate, br";
  return headers;
}

async function buildResponse(
  url: string,
  finalUrl: string,
  res: Dispatcher.ResponseData,
  redirects: RedirectHop[],
  opts: typeof DEFAULTS & GuardedFetchOptions,
  started: number,
): Promise<GuardedResponse> {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value : [value];
  }
  let body: Buffer = Buffer.alloc(0);
  if (opts.method === "HEAD") {
    await res.body.dump();
  } else {
    const declared = Number(firstHeader(res.headers, "content-length"));
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      res.body.destroy();
      throw new FetchError(
        "RESPONSE_TOO_LARGE",
        `The response from ${finalUrl} declares ${declared} bytes, over the ${opts.maxBytes}-byte limit.`,
        { url: finalUrl, maxBytes: opts.maxBytes },
      );
    }
    const raw = await readCapped(res.body, opts.maxBytes, finalUrl);
    body = await decodeBody(raw, headers["content-encoding"]?.join(","), opts.maxBytes, finalUrl);
  }
  const contentType = headers["content-type"]?.[0];
  return {
    url,
    finalUrl,
    status: res.statusCode,
    headers,
    redirects,
    body,
    text: () => decodeText(body, contentType),
    elapsedMs: Math.round(performance.now() - started),
  };
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new FetchError("INVALID_URL", `${base.href} redirected to an invalid URL.`, { url: base.href });
  }
}

function toFetchError(err: unknown, current: URL, signal: AbortSignal, opts: typeof DEFAULTS): FetchError {
  if (err instanceof FetchError) return err;
  const url = current.href;
  if (signal.aborted) {
    if (signal.reason === TIMEOUT) {
      return new FetchError("FETCH_TIMEOUT", `${url} did not answer within ${opts.timeoutMs / 1000} s.`, {
        url,
      });
    }
    return new FetchError("FETCH_FAILED", `The fetch of ${url} was cancelled.`, { url, cancelled: true });
  }
  const code = (err as { code?: string }).code ?? "";
  if (code === "UND_ERR_CONNECT_TIMEOUT") {
    return new FetchError(
      "FETCH_TIMEOUT",
      `Connecting to ${current.host} took longer than ${opts.connectTimeoutMs / 1000} s.`,
      { url, cause: code },
    );
  }
  if (
    CONNECT_ERROR_CODES.has(code) ||
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/.test(code)
  ) {
    return new FetchError(
      "CONNECT_ERROR",
      `Could not connect to ${current.host} (${code}); is the site online?`,
      {
        url,
        cause: code,
      },
    );
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new FetchError("FETCH_FAILED", `Fetching ${url} failed: ${reason}`, {
    url,
    cause: code || undefined,
  });
}

function firstHeader(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function forbidden(url: URL, address: string, reason: string) {
  return new FetchError(
    "TARGET_FORBIDDEN",
    `${url.host} is a ${reason}; only publicly reachable addresses are fetched.`,
    { url: url.href, address, reason },
  );
}

function truncate(value: string) {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}
