// Access-log formats beyond Apache/nginx combined: vhost-combined, JSON lines (nginx JSON, Cloudflare Logpush
// HTTP requests, CloudFront JSON), AWS Application Load Balancer and CloudFront standard (tab-separated) logs.
// A line is parsed by the named format, or, with `auto`, by the format its shape shows.
import { parseIp } from "../catalog/ip-ranges/cidr";
import type { LogEntry, LogLineResult } from "./log-types";

export const LOG_FORMATS = [
  "auto",
  "combined",
  "vhost_combined",
  "nginx_json",
  "cloudflare",
  "alb",
  "cloudfront",
] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export class LogLineError extends Error {}

const fail = (line: number, reason: string): LogLineResult => ({ ok: false, error: { line, reason } });

/** An IP address, without a ":port" (ALB's "192.0.2.1:2817", "[2001:db8::1]:443"), or null. */
export function ipOf(value: unknown): string | null {
  if (typeof value !== "string" || value === "" || value === "-") return null;
  let host = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed?.[1]) host = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(host)) host = host.slice(0, host.lastIndexOf(":"));
  return parseIp(host) ? host : null;
}

function pathOf(target: string): string {
  if (target.startsWith("/")) return target;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      return `${url.pathname}${url.search}`;
    } catch {
      // reported below
    }
  }
  throw new LogLineError(`request target is not a path: "${target.slice(0, 40)}"`);
}

function statusOf(value: unknown): number | null {
  if (value === undefined || value === null || value === "" || value === "-") return null;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 599)
    throw new LogLineError(`invalid status "${String(value).slice(0, 20)}"`);
  return n;
}

function bytesOf(value: unknown): number | null {
  if (value === undefined || value === null || value === "" || value === "-") return null;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

const textOf = (value: unknown): string | null =>
  typeof value === "string" && value !== "" && value !== "-" ? value : null;

/** RFC 3339 / ISO 8601 text, Unix seconds, milliseconds or nanoseconds (Cloudflare's "unixnano"). */
function timeOf(value: unknown): Date {
  if (typeof value === "number" || (typeof value === "string" && /^\d{9,19}(?:\.\d+)?$/.test(value))) {
    const n = Number(value);
    const ms = n > 1e17 ? n / 1e6 : n > 1e14 ? n / 1e3 : n > 1e11 ? n : n * 1000;
    const date = new Date(ms);
    if (!Number.isNaN(date.getTime())) return date;
  }
  if (typeof value === "string" && /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d/.test(value)) {
    const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new LogLineError(`invalid timestamp "${String(value).slice(0, 40)}"`);
}

function requestLine(request: string): Pick<LogEntry, "method" | "path" | "protocol"> | null {
  if (request === "" || request === "-") return null;
  const parts = request.split(" ").filter(Boolean);
  const last = parts.at(-1) ?? "";
  const hasProtocol = parts.length >= 3 && /^HTTP\/\d(?:\.\d)?$/.test(last);
  if (!/^[A-Z][A-Z_-]{0,23}$/.test(parts[0] ?? "") || parts.length < 2) {
    throw new LogLineError(`invalid request line: "${request.slice(0, 40)}"`);
  }
  const target = parts.slice(1, hasProtocol ? -1 : undefined).join(" ");
  return { method: parts[0] as string, path: pathOf(target), protocol: hasProtocol ? last : null };
}

export const NO_REQUEST = 'no request line ("-"): the client sent no request, nothing to record';

/** A line that was read but holds no request (a 400 or 408 before any request line): skipped, not rejected. */
export const noRequest = (line: number): LogLineResult => ({
  ok: false,
  error: { line, reason: NO_REQUEST },
  skip: true,
});

function entry(line: number, fields: Omit<LogEntry, "line">): LogLineResult {
  return { ok: true, entry: { line, ...fields } };
}

/** A signed request's headers from a log record (nginx variable names, or a map of header names), when present. */
function signedFields(
  record: unknown,
  host: string | null,
): Pick<LogEntry, "signature" | "signatureInput" | "signatureAgent" | "host"> {
  if (typeof record !== "object" || record === null) return {};
  const o = record as Record<string, unknown>;
  const signature = textOf(o.http_signature ?? o.signature ?? o.Signature);
  const signatureInput = textOf(o.http_signature_input ?? o["signature-input"] ?? o["Signature-Input"]);
  if (!signature || !signatureInput) return {};
  return {
    signature,
    signatureInput,
    signatureAgent: textOf(o.http_signature_agent ?? o["signature-agent"] ?? o["Signature-Agent"]),
    host,
  };
}

/** One JSON object per line: nginx `escape=json` logs, Cloudflare Logpush http_requests, CloudFront JSON. */
export function parseJsonLine(
  text: string,
  line: number,
  format: "nginx_json" | "cloudflare" | "auto",
): LogLineResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(line, "not valid JSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return fail(line, "not a JSON object");
  const o = json as Record<string, unknown>;
  try {
    if (
      format === "cloudflare" ||
      (format === "auto" && ("ClientRequestURI" in o || "EdgeStartTimestamp" in o))
    ) {
      const uri = textOf(o.ClientRequestURI) ?? textOf(o.ClientRequestPath);
      if (!uri) throw new LogLineError("no ClientRequestURI field");
      return entry(line, {
        ip: ipOf(o.ClientIP),
        timestamp: timeOf(o.EdgeStartTimestamp ?? o.EdgeEndTimestamp),
        method: textOf(o.ClientRequestMethod) ?? "GET",
        path: pathOf(uri),
        protocol: textOf(o.ClientRequestProtocol),
        status: statusOf(o.EdgeResponseStatus ?? o.OriginResponseStatus),
        bytes: bytesOf(o.EdgeResponseBytes),
        referrer: textOf(o.ClientRequestReferer),
        userAgent: textOf(o.ClientRequestUserAgent),
        // Logpush's custom fields put the request headers a job selects under RequestHeaders.
        ...signedFields(o.RequestHeaders, textOf(o.ClientRequestHost)),
      });
    }
    if (format === "auto" && ("cs-uri-stem" in o || "c-ip" in o)) return cloudFrontRecord(o, line);
    // nginx JSON: the variable names people log ($remote_addr, $time_iso8601, $request, ...).
    const request = textOf(o.request);
    const uri = textOf(o.request_uri) ?? textOf(o.uri);
    const parsed = uri
      ? { method: textOf(o.request_method) ?? "GET", path: pathOf(uri), protocol: textOf(o.server_protocol) }
      : request !== null
        ? requestLine(request)
        : null;
    if (!parsed) {
      if (request === null && !uri && o.request !== "-" && o.request !== "") {
        throw new LogLineError('no "request" or "request_uri" field');
      }
      return noRequest(line);
    }
    const time = o.time_iso8601 ?? o.time ?? o.timestamp ?? o["@timestamp"] ?? o.msec ?? o.time_local;
    return entry(line, {
      ip: ipOf(o.remote_addr ?? o.client_ip ?? o.ip),
      timestamp:
        typeof time === "string" && /^\d\d\/\w{3}\/\d{4}:/.test(time) ? localTime(time) : timeOf(time),
      ...parsed,
      status: statusOf(o.status),
      bytes: bytesOf(o.body_bytes_sent ?? o.bytes_sent),
      referrer: textOf(o.http_referer ?? o.referer ?? o.referrer),
      userAgent: textOf(o.http_user_agent ?? o.user_agent),
      // $http_signature, $http_signature_input, $http_signature_agent and $host (or $http_host).
      ...signedFields(o, textOf(o.http_host ?? o.host)),
    });
  } catch (error) {
    if (error instanceof LogLineError) return fail(line, error.message);
    throw error;
  }
}

let parseLocal: ((text: string) => Date | null) | null = null;
/** Registers the %t parser of log-parser.ts (kept there; this indirection avoids an import cycle). */
export function registerLocalTimeParser(fn: (text: string) => Date | null): void {
  parseLocal = fn;
}
function localTime(text: string): Date {
  const date = parseLocal?.(text) ?? null;
  if (!date) throw new LogLineError(`invalid timestamp "${text.slice(0, 40)}"`);
  return date;
}

/** Splits an ALB line: space-separated fields, some quoted ("request", "user_agent"). */
function albFields(text: string): string[] {
  const fields: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const m of text.matchAll(re))
    fields.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] as string));
  return fields;
}

/**
 * AWS Application Load Balancer access log: type time elb client:port target:port request_processing_time
 * target_processing_time response_processing_time elb_status_code target_status_code received_bytes sent_bytes
 * "request" "user_agent" ... (ALB logs carry no referrer).
 */
export function parseAlbLine(text: string, line: number): LogLineResult {
  const f = albFields(text);
  if (f.length < 14) return fail(line, `not an ALB log line: ${f.length} fields, at least 14 expected`);
  try {
    const request = requestLine(f[12] === "- - - " ? "-" : (f[12] as string).trim());
    if (!request) return noRequest(line);
    return entry(line, {
      ip: ipOf(f[3]),
      timestamp: timeOf(f[1]),
      ...request,
      status: statusOf(f[8]),
      bytes: bytesOf(f[11]),
      referrer: null,
      userAgent: textOf(f[13]),
    });
  } catch (error) {
    if (error instanceof LogLineError) return fail(line, error.message);
    throw error;
  }
}

/** CloudFront's default field order (standard logs), used until a "#Fields:" line says otherwise. */
export const CLOUDFRONT_FIELDS = [
  "date",
  "time",
  "x-edge-location",
  "sc-bytes",
  "c-ip",
  "cs-method",
  "cs(Host)",
  "cs-uri-stem",
  "sc-status",
  "cs(Referer)",
  "cs(User-Agent)",
  "cs-uri-query",
];

/** CloudFront URL-encodes its fields (a user agent's spaces as %20, and sometimes twice as %2520). */
function cfDecode(value: string | undefined): string | null {
  if (value === undefined || value === "-" || value === "") return null;
  let text = value;
  for (let i = 0; i < 2 && /%[0-9A-Fa-f]{2}/.test(text); i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text;
}

function cloudFrontRecord(o: Record<string, unknown>, line: number): LogLineResult {
  const get = (k: string) =>
    typeof o[k] === "string" ? (o[k] as string) : o[k] === undefined ? undefined : String(o[k]);
  try {
    const stem = cfDecode(get("cs-uri-stem"));
    if (!stem) return fail(line, "no cs-uri-stem field");
    const query = cfDecode(get("cs-uri-query"));
    const date = get("date");
    const time = get("time");
    const timestamp = get("timestamp");
    return entry(line, {
      ip: ipOf(get("c-ip")),
      timestamp: timeOf(date && time ? `${date}T${time}Z` : timestamp),
      method: get("cs-method") ?? "GET",
      path: pathOf(query ? `${stem}?${query}` : stem),
      protocol: get("cs-protocol-version") ?? null,
      status: statusOf(get("sc-status")),
      bytes: bytesOf(get("sc-bytes")),
      referrer: cfDecode(get("cs(Referer)")),
      userAgent: cfDecode(get("cs(User-Agent)")),
    });
  } catch (error) {
    if (error instanceof LogLineError) return fail(line, error.message);
    throw error;
  }
}

/** One tab-separated CloudFront standard-log line, by the current field names. */
export function parseCloudFrontLine(text: string, line: number, fields: readonly string[]): LogLineResult {
  const values = text.split("\t");
  if (values.length < Math.min(fields.length, 11)) {
    return fail(line, `not a CloudFront log line: ${values.length} tab-separated fields`);
  }
  return cloudFrontRecord(Object.fromEntries(fields.map((f, i) => [f, values[i]])), line);
}

/** Which format a line looks like (for `auto`). */
export function detectLineFormat(text: string): Exclude<LogFormat, "auto"> {
  const t = text.trimStart();
  if (t.startsWith("{")) return "nginx_json";
  if (/^(?:https?|h2|grpcs|wss?) \d{4}-\d\d-\d\dT\S+ \S+ \S+:\d+ /.test(t)) return "alb";
  if (/^\d{4}-\d\d-\d\d\t\d\d:\d\d:\d\d\t/.test(t)) return "cloudfront";
  // The client may be a forwarded-for list ("10.0.0.2, 85.181.35.98"): its first entry shows the shape.
  const first = /^(\S+) ([^\s,]+),? /.exec(t);
  if (first && /:\d+$/.test(first[1] as string) && !ipOf(first[1]) && ipOf(first[2])) return "vhost_combined";
  if (first && /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(first[1] as string) && ipOf(first[2]))
    return "vhost_combined";
  return "combined";
}
