// Access logs of AWS: Application and Classic Load Balancer lines and CloudFront standard (tab-separated) lines.
import {
  bytesOf,
  entry,
  fail,
  ipOf,
  noRequest,
  pathOf,
  readLine,
  requestLine,
  statusOf,
  textOf,
  timeOf,
} from "./log-fields";
import type { LogLineResult } from "./log-types";

/** Splits an ALB line: space-separated fields, some quoted ("request", "user_agent"). */
function albFields(text: string): string[] {
  const fields: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const m of text.matchAll(re))
    fields.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] as string));
  return fields;
}

/** A Classic Load Balancer line begins with its time: it has no type field before it. */
const CLASSIC_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;

/**
 * AWS Application Load Balancer access log: type time elb client:port target:port request_processing_time
 * target_processing_time response_processing_time elb_status_code target_status_code received_bytes sent_bytes
 * "request" "user_agent" ... (ALB logs carry no referrer). A Classic Load Balancer's line is the same without the
 * type: time elb client:port backend:port three times elb_status_code backend_status_code received_bytes
 * sent_bytes "request" "user_agent" ssl_cipher ssl_protocol.
 */
export function parseAlbLine(text: string, line: number): LogLineResult {
  const all = albFields(text);
  const classic = CLASSIC_TIME.test(all[0] ?? "");
  // The Classic layout read as the Application one: a placeholder where the type would be.
  const f = classic ? ["", ...all] : all;
  if (f.length < 14) {
    return fail(
      line,
      classic
        ? `not a Classic Load Balancer log line: ${all.length} fields, at least 13 expected`
        : `not an ALB log line: ${all.length} fields, at least 14 expected`,
    );
  }
  return readLine(line, () => {
    // A request the balancer could not read is logged as "- - -" (or "- URL -"): nothing to record.
    const raw = (f[12] as string).trim();
    const request = requestLine(/^-(?: |$)/.test(raw) ? "-" : raw);
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
  });
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

export function cloudFrontRecord(o: Record<string, unknown>, line: number): LogLineResult {
  const get = (k: string) =>
    typeof o[k] === "string" ? (o[k] as string) : o[k] === undefined ? undefined : String(o[k]);
  return readLine(line, () => {
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
  });
}

/** One tab-separated CloudFront standard-log line, by the current field names. */
export function parseCloudFrontLine(text: string, line: number, fields: readonly string[]): LogLineResult {
  const values = text.split("\t");
  if (values.length < Math.min(fields.length, 11)) {
    return fail(line, `not a CloudFront log line: ${values.length} tab-separated fields`);
  }
  return cloudFrontRecord(Object.fromEntries(fields.map((f, i) => [f, values[i]])), line);
}
