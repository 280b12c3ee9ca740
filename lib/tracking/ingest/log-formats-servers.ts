// Access logs of Caddy and Traefik (their JSON access logs), of Google Cloud (Cloud Logging entries with an
// httpRequest: load balancers, Cloud Run, App Engine), of Vercel (its log drains) and of IIS (W3C extended: IIS and
// Azure App Service).
import {
  bytesOf,
  clientOfChain,
  entry,
  fail,
  ipOf,
  LogLineError,
  localTime,
  noRequest,
  pathOf,
  readLine,
  signedFields,
  statusOf,
  textOf,
  timeOf,
} from "./log-fields";
import type { LogLineResult } from "./log-types";

type Fields = Record<string, unknown>;

const objectOf = (value: unknown): Fields | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : null;

/** A status, where 0 means the connection closed before any answer (Caddy, Traefik): none, not an error. */
const answeredStatus = (value: unknown) => (value === 0 || value === "0" ? null : statusOf(value));

/**
 * The client behind a proxy: `connected` is the address that connected, `forwarded` the X-Forwarded-For list the
 * log kept (IIS's custom field, Traefik's kept header), believed by the server's trusted-proxy rule.
 */
function clientBehind(connected: unknown, forwarded: string | null): string | null {
  const peer = ipOf(connected);
  if (!peer || !forwarded) return peer;
  return ipOf(clientOfChain([...forwarded.split(/[\s,]+/).filter((e) => e !== ""), peer]));
}

/**
 * Request headers as Caddy logs them ({"User-Agent": ["…"]}), by lower-case name, a header sent more than once
 * joined with ", " as HTTP combines field lines.
 */
function headerMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(objectOf(value) ?? {})) {
    const text = Array.isArray(v) ? v.filter((x) => typeof x === "string").join(", ") : textOf(v);
    if (text) out[name.toLowerCase()] = text;
  }
  return out;
}

/** Caddy's `ts`: Unix seconds by default; its other time formats give milliseconds, nanoseconds or text. */
function caddyTime(value: unknown): Date {
  if (typeof value === "string" && /^\d\d\/\w{3}\/\d{4}:/.test(value)) return localTime(value);
  return timeOf(value);
}

/** Caddy's JSON access log ("http.log.access"): the request under `request`, its headers as lists. */
export function caddyRecord(o: Fields, line: number): LogLineResult {
  const request = objectOf(o.request);
  if (!request) return fail(line, 'no "request" object');
  return readLine(line, () => {
    const uri = textOf(request.uri);
    if (!uri) throw new LogLineError("no request.uri field");
    const headers = headerMap(request.headers);
    return entry(line, {
      // client_ip is the client after Caddy's trusted proxies; remote_ip the address that connected (remote_addr,
      // with its port, before Caddy 2.5).
      ip: ipOf(request.client_ip) ?? ipOf(request.remote_ip) ?? ipOf(request.remote_addr),
      timestamp: caddyTime(o.ts),
      method: textOf(request.method) ?? "GET",
      path: pathOf(uri),
      protocol: textOf(request.proto),
      status: answeredStatus(o.status),
      bytes: bytesOf(o.size),
      referrer: headers.referer ?? null,
      userAgent: headers["user-agent"] ?? null,
      ...signedFields(headers, textOf(request.host)),
    });
  });
}

/**
 * Traefik's JSON access log: Request* and Downstream* fields, and the request headers it keeps as
 * `request_<Header-Name>` (Traefik drops headers unless its configuration keeps them: User-Agent and Referer are
 * the ones a bot's visit needs).
 */
export function traefikRecord(o: Fields, line: number): LogLineResult {
  return readLine(line, () => {
    const path = textOf(o.RequestPath);
    if (!path) throw new LogLineError("no RequestPath field");
    const headers: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o))
      if (k.startsWith("request_")) headers[k.slice(8).toLowerCase()] = v;
    return entry(line, {
      ip: clientBehind(ipOf(o.ClientHost) ?? o.ClientAddr, textOf(headers["x-forwarded-for"])),
      timestamp: timeOf(o.StartUTC ?? o.time ?? o.StartLocal),
      method: textOf(o.RequestMethod) ?? "GET",
      path: pathOf(path),
      protocol: textOf(o.RequestProtocol),
      status: answeredStatus(o.DownstreamStatus ?? o.OriginStatus),
      bytes: bytesOf(o.DownstreamContentSize),
      referrer: textOf(headers.referer),
      userAgent: textOf(headers["user-agent"]),
      ...signedFields(headers, textOf(o.RequestHost)),
    });
  });
}

/**
 * A Google Cloud Logging entry (LogEntry) with its `httpRequest`: the request logs of Cloud Load Balancing,
 * Cloud Run and App Engine, one entry per line as a log sink writes them to Cloud Storage.
 */
export function googleCloudRecord(o: Fields, line: number): LogLineResult {
  const http = objectOf(o.httpRequest);
  if (!http) return fail(line, 'no "httpRequest" object');
  return readLine(line, () => {
    const url = textOf(http.requestUrl);
    if (!url) throw new LogLineError("no httpRequest.requestUrl field");
    return entry(line, {
      ip: ipOf(http.remoteIp),
      timestamp: timeOf(o.timestamp ?? o.receiveTimestamp),
      method: textOf(http.requestMethod) ?? "GET",
      path: pathOf(url),
      protocol: textOf(http.protocol),
      status: statusOf(http.status),
      bytes: bytesOf(http.responseSize),
      referrer: textOf(http.referer),
      userAgent: textOf(http.userAgent),
    });
  });
}

/** A status where Vercel writes -1 for none (a function that crashed, a revalidation in the background). */
const vercelStatus = (value: unknown) => (value === -1 || value === "-1" ? null : statusOf(value));

/**
 * A Vercel log drain's record (its JSON and NDJSON delivery formats): the request is its `proxy` object. A request
 * served by a function is logged once per line the function wrote, each record with the same `proxy` and
 * `requestId`; records without a `proxy` (build output) hold no request and are skipped.
 */
export function vercelRecord(o: Fields, line: number): LogLineResult {
  const proxy = objectOf(o.proxy);
  if (!proxy) return noRequest(line);
  return readLine(line, () => {
    const path = textOf(proxy.path);
    if (!path) throw new LogLineError("no proxy.path field");
    const agents = Array.isArray(proxy.userAgent) ? proxy.userAgent : [proxy.userAgent];
    const userAgent = agents.filter((a): a is string => typeof a === "string" && a !== "").join(", ");
    return entry(line, {
      ip: ipOf(proxy.clientIp),
      timestamp: timeOf(proxy.timestamp ?? o.timestamp),
      method: textOf(proxy.method) ?? "GET",
      path: pathOf(path),
      protocol: null,
      status: vercelStatus(proxy.statusCode) ?? vercelStatus(o.statusCode),
      bytes: bytesOf(proxy.responseByteSize),
      referrer: textOf(proxy.referer),
      userAgent: userAgent || null,
      requestId: textOf(o.requestId) ?? textOf(proxy.vercelId),
      site: textOf(proxy.host),
    });
  });
}

/** IIS's default W3C extended fields, used until a "#Fields:" line says otherwise. */
export const IIS_FIELDS = [
  "date",
  "time",
  "s-ip",
  "cs-method",
  "cs-uri-stem",
  "cs-uri-query",
  "s-port",
  "cs-username",
  "c-ip",
  "cs(User-Agent)",
  "cs(Referer)",
  "sc-status",
  "sc-substatus",
  "sc-win32-status",
  "time-taken",
];

/**
 * IIS writes a space inside a field as "+": a user agent's "; +http://…" is logged ";++http://…". A "++" is read
 * back as a space and a plus, every other "+" as a space.
 */
const iisText = (value: string | undefined): string | null =>
  value === undefined || value === "-" || value === ""
    ? null
    : value.replace(/\+\+?/g, (plus) => (plus === "++" ? " +" : " "));

/**
 * One line of a W3C extended log as IIS and Azure App Service write it: space-separated fields named by the
 * log's "#Fields:" line, times in UTC, `c-ip` the client (or the forwarded-for field behind a proxy).
 */
export function parseIisLine(text: string, line: number, fields: readonly string[]): LogLineResult {
  const values = text.split(" ");
  if (values.length !== fields.length) {
    return fail(line, `not a W3C log line: ${values.length} fields where "#Fields:" names ${fields.length}`);
  }
  const get = (name: string): string | undefined => {
    const i = fields.indexOf(name);
    return i < 0 ? undefined : values[i];
  };
  return readLine(line, () => {
    const stem = textOf(get("cs-uri-stem"));
    if (!stem) throw new LogLineError("no cs-uri-stem field");
    const [date, time] = [get("date"), get("time")];
    if (!date || !time) throw new LogLineError('no "date" and "time" fields');
    const query = textOf(get("cs-uri-query"));
    return entry(line, {
      // Behind a proxy, IIS's enhanced logging adds the forwarded-for header as a custom field.
      ip: clientBehind(get("c-ip"), iisText(get("X-Forwarded-For") ?? get("cs(X-Forwarded-For)"))),
      timestamp: timeOf(`${date}T${time}Z`),
      method: textOf(get("cs-method")) ?? "GET",
      path: pathOf(query ? `${stem}?${query}` : stem),
      protocol: textOf(get("cs-version")),
      status: statusOf(get("sc-status")),
      bytes: bytesOf(get("sc-bytes")),
      referrer: iisText(get("cs(Referer)")),
      userAgent: iisText(get("cs(User-Agent)")),
    });
  });
}
