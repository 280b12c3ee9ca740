import {
  bytesOf,
  entry,
  fail,
  ipOf,
  LogLineError,
  localTime,
  logpushCheck,
  noRequest,
  pathOf,
  readLine,
  requestLine,
  signedFields,
  statusOf,
  textOf,
  timeOf,
} from "./log-fields";
import { cloudFrontRecord } from "./log-formats-aws";
import { akamaiRecord } from "./log-formats-cdn";
import { caddyRecord, googleCloudRecord, traefikRecord, vercelRecord } from "./log-formats-servers";
import type { LogLineResult } from "./log-types";

export const LOG_FORMATS = [
  "auto",
  "combined",
  "vhost_combined",
  "nginx_json",
  "cloudflare",
  "alb",
  "cloudfront",
  "caddy",
  "traefik",
  "google_cloud",
  "vercel",
  "akamai",
  "iis",
] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The formats whose lines are JSON objects, one per line. */
const JSON_LOG_FORMATS = [
  "nginx_json",
  "cloudflare",
  "caddy",
  "traefik",
  "google_cloud",
  "vercel",
  "akamai",
] as const satisfies readonly LogFormat[];
export type JsonLogFormat = (typeof JSON_LOG_FORMATS)[number];
export const isJsonLogFormat = (format: LogFormat): format is JsonLogFormat =>
  (JSON_LOG_FORMATS as readonly LogFormat[]).includes(format);

/**
 * One JSON object per line: nginx `escape=json` logs, Cloudflare Logpush http_requests, CloudFront JSON, Caddy's
 * and Traefik's access logs, Google Cloud Logging entries, Vercel log drain records. `auto` tells them apart by the
 * fields each one has.
 */
export function parseJsonLine(text: string, line: number, format: JsonLogFormat | "auto"): LogLineResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (format === "cloudflare" && text.trim() === "test") return logpushCheck(line);
    return fail(line, "not valid JSON");
  }
  return parseJsonRecord(json, line, format);
}

/** One record already parsed from JSON (a line of JSON lines, or an element of a JSON array body). */
export function parseJsonRecord(json: unknown, line: number, format: JsonLogFormat | "auto"): LogLineResult {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return fail(line, "not a JSON object");
  const o = json as Record<string, unknown>;
  return readLine(line, () => {
    if (
      format === "cloudflare" ||
      (format === "auto" && ("ClientRequestURI" in o || "EdgeStartTimestamp" in o))
    ) {
      const uri = textOf(o.ClientRequestURI) ?? textOf(o.ClientRequestPath);
      if (!uri && format === "cloudflare" && "content" in o && Object.keys(o).length === 1)
        return logpushCheck(line);
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
    if (format === "caddy" || (format === "auto" && isObject(o.request) && "uri" in o.request))
      return caddyRecord(o, line);
    if (format === "traefik" || (format === "auto" && ("RequestPath" in o || "DownstreamStatus" in o)))
      return traefikRecord(o, line);
    if (format === "google_cloud" || (format === "auto" && isObject(o.httpRequest)))
      return googleCloudRecord(o, line);
    if (format === "vercel" || (format === "auto" && "deploymentId" in o && "source" in o))
      return vercelRecord(o, line);
    if (format === "akamai" || (format === "auto" && "reqTimeSec" in o && "cliIP" in o))
      return akamaiRecord(o, line);
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
  });
}

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

/** Which format a line looks like (for `auto`). */
export function detectLineFormat(text: string): Exclude<LogFormat, "auto"> {
  const t = text.trimStart();
  if (t.startsWith("{")) return "nginx_json";
  if (/^(?:https?|h2|grpcs|wss?) \d{4}-\d\d-\d\dT\S+ \S+ \S+:\d+ /.test(t)) return "alb";
  // A Classic Load Balancer's line: its time first, then the balancer, the client and the backend (or "-").
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z \S+ \S+:\d+ (?:\S+:\d+|-) /.test(t)) return "alb";
  if (/^\d{4}-\d\d-\d\d\t\d\d:\d\d:\d\d\t/.test(t)) return "cloudfront";
  // W3C extended as IIS writes it: the date and time first, space-separated.
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d /.test(t)) return "iis";
  // The client may be a forwarded-for list ("10.0.0.2, 85.181.35.98"): its first entry shows the shape.
  const first = /^(\S+) ([^\s,]+),? /.exec(t);
  if (first && /:\d+$/.test(first[1] as string) && !ipOf(first[1]) && ipOf(first[2])) return "vhost_combined";
  if (first && /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(first[1] as string) && ipOf(first[2]))
    return "vhost_combined";
  return "combined";
}
