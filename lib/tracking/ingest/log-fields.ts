// The fields of access-log lines as every format reads them: addresses, paths, statuses, sizes, times and
// request lines, and the result shapes of a line.
import { parseTrustProxy, resolveClient, type TrustProxy } from "@/lib/forwarded";
import { parseIp } from "../catalog/ip-ranges/cidr";
import type { LogEntry, LogLineResult } from "./log-types";

export class LogLineError extends Error {}

export const fail = (line: number, reason: string): LogLineResult => ({ ok: false, error: { line, reason } });

/** What a format's reader makes of a line: its result, or the line's failure with the reason a field gave. */
export function readLine(line: number, read: () => LogLineResult): LogLineResult {
  try {
    return read();
  } catch (error) {
    if (error instanceof LogLineError) return fail(line, error.message);
    throw error;
  }
}

/** An IP address, without a ":port" (ALB's "192.0.2.1:2817", "[2001:db8::1]:443"), or null. */
export function ipOf(value: unknown): string | null {
  if (typeof value !== "string" || value === "" || value === "-") return null;
  let host = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed?.[1]) host = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(host)) host = host.slice(0, host.lastIndexOf(":"));
  return parseIp(host) ? host : null;
}

export function pathOf(target: string): string {
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

export function statusOf(value: unknown): number | null {
  if (value === undefined || value === null || value === "" || value === "-") return null;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 599)
    throw new LogLineError(`invalid status "${String(value).slice(0, 20)}"`);
  return n;
}

export function bytesOf(value: unknown): number | null {
  if (value === undefined || value === null || value === "" || value === "-") return null;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

export const textOf = (value: unknown): string | null =>
  typeof value === "string" && value !== "" && value !== "-" ? value : null;

/** RFC 3339 / ISO 8601 text, Unix seconds, milliseconds or nanoseconds (Cloudflare's "unixnano"). */
export function timeOf(value: unknown): Date {
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

export function requestLine(request: string): Pick<LogEntry, "method" | "path" | "protocol"> | null {
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

const NO_REQUEST = 'no request line ("-"): the client sent no request, nothing to record';

/** A line that was read but holds no request (a 400 or 408 before any request line): skipped, not rejected. */
export const noRequest = (line: number): LogLineResult => ({
  ok: false,
  error: { line, reason: NO_REQUEST },
  skip: true,
});

/**
 * Cloudflare Logpush checks an HTTP destination before it creates the job, and may push the same check again: a
 * body of "test", or a gzipped file holding {"content":"tests"}. Neither is a request: skipped, not rejected.
 */
export const logpushCheck = (line: number): LogLineResult => ({
  ok: false,
  error: { line, reason: "Cloudflare Logpush's destination check, not a request" },
  skip: true,
});

export function entry(line: number, fields: Omit<LogEntry, "line">): LogLineResult {
  return { ok: true, entry: { line, ...fields } };
}

/** A signed request's headers from a log record (nginx variable names, or a map of header names), when present. */
export function signedFields(
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

let parseLocal: ((text: string) => Date | null) | null = null;
/** Registers the %t parser of log-parser.ts (kept there; this indirection avoids an import cycle). */
export function registerLocalTimeParser(fn: (text: string) => Date | null): void {
  parseLocal = fn;
}
export function localTime(text: string): Date {
  const date = parseLocal?.(text) ?? null;
  if (!date) throw new LogLineError(`invalid timestamp "${text.slice(0, 40)}"`);
  return date;
}

let trustFor: { raw: string | undefined; trust: TrustProxy } | null = null;

/** The proxies the server trusts (TRUST_PROXY), read again only when the setting changes. */
function trustProxy(): TrustProxy {
  const raw = process.env.TRUST_PROXY;
  if (trustFor === null || trustFor.raw !== raw) {
    let trust: TrustProxy;
    try {
      trust = parseTrustProxy(raw);
    } catch {
      trust = { kind: "none" };
    }
    trustFor = { raw, trust };
  }
  return trustFor.trust;
}

/**
 * The client of a forwarded-for list as the server's trusted-proxy rule takes it: the last entry is the address
 * that connected (what $remote_addr would be), the ones before it what proxies claimed; a claim is believed only
 * from a trusted proxy. Without trusted proxies the connecting address is the client.
 */
export function clientOfChain(chain: string[]): string {
  const peer = chain[chain.length - 1] as string;
  const { ip } = resolveClient(
    { remoteAddress: peer },
    { "x-forwarded-for": chain.slice(0, -1).join(",") },
    trustProxy(),
  );
  return ip === "unknown" ? peer : ip;
}
