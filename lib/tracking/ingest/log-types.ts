// The access-log entry and per-line result, shared by the parser and the format readers.

/** One request from an access log in common or combined log format. */
export interface LogEntry {
  line: number;
  /** The client address, or null when the log holds a host name or "-" there. */
  ip: string | null;
  timestamp: Date;
  method: string;
  /** Path and query; absolute URLs in the request line are reduced to this. */
  path: string;
  /** "HTTP/1.1" and so on; null for HTTP/0.9-style request lines that omit it. */
  protocol: string | null;
  status: number | null;
  bytes: number | null;
  referrer: string | null;
  userAgent: string | null;
  /** A signed request's Web Bot Auth headers and Host, in formats with a field for them. */
  signature?: string | null;
  signatureInput?: string | null;
  signatureAgent?: string | null;
  host?: string | null;
  /**
   * The request's own id, in formats that log one request in several records (a Vercel function's output lines):
   * the request is recorded once, keyed by it.
   */
  requestId?: string | null;
  /**
   * The site the request was for, in formats that gather several sites in one stream (a team-wide Vercel drain):
   * a request for a site other than the upload's domain is skipped.
   */
  site?: string | null;
}

export interface LogLineError {
  line: number;
  reason: string;
}

/** `skip`: the line was read but holds nothing to record (a "-" request line); it is not an error. */
export type LogLineResult = { ok: true; entry: LogEntry } | { ok: false; error: LogLineError; skip?: true };
