import { ISO_DATETIME } from "./event-schema";
import { clientOfChain, ipOf, noRequest, registerLocalTimeParser } from "./log-fields";
import {
  detectLineFormat,
  isJsonLogFormat,
  type LogFormat,
  parseJsonLine,
  parseJsonRecord,
} from "./log-formats";
import { CLOUDFRONT_FIELDS, parseAlbLine, parseCloudFrontLine } from "./log-formats-aws";
import { IIS_FIELDS, parseIisLine } from "./log-formats-servers";
import { DateFromValue, isoDateTimeMs } from "./time-text";

export type { LogLineResult } from "./log-types";

import { LineError, LineReader } from "./line-reader";
import type { LogLineResult } from "./log-types";

export interface ParseLogOptions {
  /** Longer lines are reported, not parsed (default 16 KiB). */
  maxLineLength?: number;
  /** The log's format; `auto` (default) goes by each line's shape. */
  format?: LogFormat;
}

export const DEFAULT_MAX_LINE = 16 * 1024;
const METHOD = /^[A-Z][A-Z_-]{0,23}$/;
const PROTOCOL = /^HTTP\/\d(?:\.\d)?$/;
// The months of %t, keyed by their three letters in lower case packed into one number.
const MONTHS = new Map(
  ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map((m, i) => [
    (m.charCodeAt(0) << 16) | (m.charCodeAt(1) << 8) | m.charCodeAt(2),
    i,
  ]),
);
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number of the `n` ASCII digits of `text` at `at`, or -1 where one is not a digit. */
function digits(text: string, at: number, n: number): number {
  let value = 0;
  for (let i = at; i < at + n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * Milliseconds since the epoch of "10/Oct/2000:13:55:36 -0700", with up to six digits of fraction after the
 * seconds, or NaN. Read by position (a log's every line holds one): a regular expression, Date.UTC and a Date to
 * check the day took most of the time a line's fields took to read.
 */
function clfTimeMs(text: string): number {
  const n = text.length;
  const fraction = n - 26; // the characters of ".123" in "10/Oct/2000:13:55:36.123 -0700"
  if (n < 26 || fraction === 1 || fraction > 7) return Number.NaN;
  if (text[2] !== "/" || text[6] !== "/" || text[11] !== ":" || text[14] !== ":" || text[17] !== ":")
    return Number.NaN;
  const day = digits(text, 0, 2);
  const year = digits(text, 7, 4);
  const hour = digits(text, 12, 2);
  const minute = digits(text, 15, 2);
  const second = digits(text, 18, 2);
  let ms = 0;
  if (fraction > 0) {
    if (text[20] !== ".") return Number.NaN;
    const f = digits(text, 21, fraction - 1);
    if (f < 0) return Number.NaN;
    ms = Math.floor(f / 10 ** Math.max(0, fraction - 4)) * 10 ** Math.max(0, 4 - fraction);
  }
  const zone = 20 + fraction;
  const sign = text[zone + 1];
  const offsetHours = digits(text, zone + 2, 2);
  const offsetMinutes = digits(text, zone + 4, 2);
  const month = MONTHS.get(
    ((text.charCodeAt(3) | 32) << 16) | ((text.charCodeAt(4) | 32) << 8) | (text.charCodeAt(5) | 32),
  );
  if (
    month === undefined ||
    text[zone] !== " " ||
    (sign !== "+" && sign !== "-") ||
    (day | year | hour | minute | second | offsetHours | offsetMinutes) < 0 ||
    hour > 23 ||
    minute > 59 ||
    second > 60 ||
    offsetHours > 14 ||
    offsetMinutes > 59 ||
    day < 1 ||
    day >
      (month === 1 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS_IN_MONTH[month]!)
  ) {
    return Number.NaN;
  }
  const offset = (offsetHours * 60 + offsetMinutes) * (sign === "-" ? -60_000 : 60_000);
  return Date.UTC(year, month, day, hour, minute, second, ms) - offset;
}

let lastText = "";
let lastMs = Number.NaN;

/** Parses "10/Oct/2000:13:55:36 -0700" (the %t of Apache and nginx), or its ISO 8601 form, to a Date. */
export function parseLogTimestamp(text: string): Date | null {
  // A log's lines come in time order, many to the second on a busy site: the last text read is read once.
  if (text !== lastText) {
    // nginx's $time_iso8601 ("2000-10-10T13:55:36-07:00"), which custom formats put where %t goes, is read as an
    // event's timestamp is.
    lastMs = ISO_DATETIME.test(text) ? isoDateTimeMs(text) : clfTimeMs(text);
    lastText = text;
  }
  return Number.isNaN(lastMs) ? null : new DateFromValue(lastMs);
}

function optionalNumber(text: string, field: string, pattern: RegExp): number | null {
  if (text === "-") return null;
  if (!pattern.test(text)) throw new LineError(`invalid ${field} "${text.slice(0, 20)}"`);
  return Number(text);
}

function pathFromTarget(target: string): string {
  if (target.startsWith("/")) return target;
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      return `${url.pathname}${url.search}`;
    } catch {
      // falls through to the error below
    }
  }
  throw new LineError(`request target is not a path: "${target.slice(0, 40)}"`);
}

function parseRequest(request: string): { method: string; path: string; protocol: string | null } | null {
  if (request.trim() === "-" || request.trim() === "") return null;
  const parts = request.split(" ").filter((p) => p !== "");
  const method = parts[0] ?? "";
  if (!METHOD.test(method) || parts.length < 2) {
    throw new LineError(`invalid request line: "${request.slice(0, 40)}"`);
  }
  const last = parts[parts.length - 1] as string;
  const hasProtocol = parts.length >= 3 && PROTOCOL.test(last);
  // An unencoded space inside the URL leaves extra parts; they belong to the target.
  const target = parts.slice(1, hasProtocol ? -1 : undefined).join(" ");
  return { method, path: pathFromTarget(target), protocol: hasProtocol ? last : null };
}

/** Where the timestamp's bracket opens: the first " [" followed by a day of the month. */
const TIMESTAMP_OPEN = / \[\d/;

/**
 * The part of a line before its timestamp: `[virtual host] client identity user`, where the client is an address,
 * a host name ("localhost", "unix:") or a forwarded-for list as nginx logs them: "10.0.0.2, 10.0.0.1, 85.181.35.98"
 * ($proxy_add_x_forwarded_for), or the header and the connecting address apart, quoted or not
 * ("10.5.102.222, 199.96.1.1" 10.2.1.185). The list's entries are separated by commas, spaces or both; its last
 * entry is the connecting address. A first word with no comma after it, followed by more entries, is the virtual
 * host (vhost_combined: "example.com:80 …", "1.128.3.4 localhost …"), as log shippers read these lines.
 * Returns the client as the trusted-proxy rule takes it, and where the timestamp begins.
 */
function clientPart(text: string, vhost: boolean): { address: string; end: number } {
  const open = TIMESTAMP_OPEN.exec(text);
  const words = text.slice(0, open?.index).trim().split(/\s+/);
  // The field that is missing, read left to right as the format lists them.
  if (words.length < 3 || !open) {
    throw new LineError(
      words.length === 1
        ? "truncated line: no identity"
        : words.length === 2
          ? "truncated line: no user"
          : 'no timestamp: expected "["',
    );
  }
  // The last two words are the identity and the user (%l %u: "-" when unknown, else one word each).
  const region = words.slice(0, -2);
  const first = region[0] as string;
  const entries = region
    .join(" ")
    .split(/[\s,"]+/)
    .filter((e) => e !== "");
  const hasVhost =
    entries.length >= 2 && (vhost || (region.length >= 2 && !first.startsWith('"') && !first.endsWith(",")));
  const chain = hasVhost ? entries.slice(1) : entries;
  if (chain.length === 0) throw new LineError("no client address before the timestamp");
  return { address: chain.length === 1 ? (chain[0] as string) : clientOfChain(chain), end: open.index };
}

/**
 * Parses one line of an access log in combined (`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"`)
 * or common format. Fields after the user agent (nginx's $request_time and the like) are ignored. Never
 * throws: a line that cannot be read comes back as an error with its reason.
 */
function parseCombinedLine(text: string, line: number, options: ParseLogOptions): LogLineResult {
  const maxLength = options.maxLineLength ?? DEFAULT_MAX_LINE;
  const raw = text.endsWith("\r") ? text.slice(0, -1) : text;
  if (raw.length > maxLength) {
    return {
      ok: false,
      error: { line, reason: `line too long: ${raw.length} characters (limit ${maxLength})` },
    };
  }
  if (raw.trim() === "") return { ok: false, error: { line, reason: "empty line" } };
  try {
    const text = raw.replace(/^\uFEFF/, "");
    const client = clientPart(text, options.format === "vhost_combined");
    const reader = new LineReader(text);
    reader.i = client.end;
    const host = client.address;
    const timeText = reader.bracketed("timestamp");
    const timestamp = parseLogTimestamp(timeText);
    if (!timestamp) throw new LineError(`invalid timestamp "${timeText.slice(0, 40)}"`);
    const request = parseRequest(reader.quoted("request line"));
    if (!request) return noRequest(line);
    const status = optionalNumber(reader.token("status"), "status", /^[1-5]\d\d$/);
    const bytes = reader.atEnd() ? null : optionalNumber(reader.token("size"), "size", /^\d{1,15}$/);
    const referrer = reader.atEnd() ? null : reader.quoted("referrer");
    const userAgent = reader.atEnd() ? null : reader.quoted("user agent", true);
    return {
      ok: true,
      entry: {
        line,
        ip: ipOf(host),
        timestamp,
        ...request,
        status,
        bytes,
        referrer: referrer === "-" || referrer === "" ? null : referrer,
        userAgent: userAgent === "-" ? null : userAgent,
      },
    };
  } catch (error) {
    if (error instanceof LineError) return { ok: false, error: { line, reason: error.message } };
    throw error;
  }
}

registerLocalTimeParser(parseLogTimestamp);

/**
 * A line parser for one log: `format` names it, or `auto` goes by each line's shape. It keeps the state a
 * log carries between lines (a W3C "#Fields:" header, CloudFront's or IIS's). Comment lines ("#...") come back
 * as null.
 */
export function createLogLineParser(options: ParseLogOptions = {}) {
  // Until a "#Fields:" line names them, each W3C format's default fields.
  let w3cFields: readonly string[] | null = null;
  const maxLength = options.maxLineLength ?? DEFAULT_MAX_LINE;
  return (text: string, line: number): LogLineResult | null => {
    const raw = (text.endsWith("\r") ? text.slice(0, -1) : text).replace(/^\uFEFF/, "");
    if (raw.length > maxLength) {
      return {
        ok: false,
        error: { line, reason: `line too long: ${raw.length} characters (limit ${maxLength})` },
      };
    }
    if (raw.startsWith("#")) {
      const fields = /^#Fields:\s*(.+)$/.exec(raw);
      if (fields?.[1]) w3cFields = fields[1].trim().split(/\s+/);
      return null;
    }
    const requested = options.format ?? "auto";
    const format = requested === "auto" ? detectLineFormat(raw) : requested;
    if (isJsonLogFormat(format)) return parseJsonLine(raw, line, requested === "auto" ? "auto" : format);
    switch (format) {
      case "alb":
        return parseAlbLine(raw, line);
      case "cloudfront":
        return raw.trimStart().startsWith("{")
          ? parseJsonLine(raw, line, "auto")
          : parseCloudFrontLine(raw, line, w3cFields ?? CLOUDFRONT_FIELDS);
      case "iis":
        return parseIisLine(raw, line, w3cFields ?? IIS_FIELDS);
      default:
        return parseCombinedLine(raw, line, { ...options, format });
    }
  };
}

/**
 * A record parser for a log sent as one JSON array (a Vercel drain's JSON delivery): each element is read as the
 * record of a JSON format (`auto` and CloudFront tell them apart by their fields) without being written back to
 * text; for a format whose lines are not JSON, an element is read as the line its JSON text would be.
 */
export function createLogRecordParser(options: ParseLogOptions = {}) {
  const requested = options.format ?? "auto";
  if (requested === "auto" || requested === "cloudfront")
    return (record: unknown, line: number) => parseJsonRecord(record, line, "auto");
  if (isJsonLogFormat(requested))
    return (record: unknown, line: number) => parseJsonRecord(record, line, requested);
  const parseLine = createLogLineParser(options);
  return (record: unknown, line: number) => parseLine(JSON.stringify(record) ?? "null", line);
}

/**
 * Parses one line of an access log: combined (`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"`) or
 * common format by default, or the format `options.format` names. Never throws: a line that cannot be read
 * comes back as an error with its reason.
 */
export function parseLogLine(text: string, line = 1, options: ParseLogOptions = {}): LogLineResult {
  return (
    createLogLineParser(options)(text, line) ?? {
      ok: false,
      error: { line, reason: "comment line" },
      skip: true,
    }
  );
}
