// Akamai DataStream 2 records (its JSON log format, one record a line, as a stream pushes them to an HTTPS
// endpoint).
import { bytesOf, entry, ipOf, LogLineError, pathOf, readLine, statusOf, textOf, timeOf } from "./log-fields";
import type { LogLineResult } from "./log-types";

/**
 * A DataStream 2 text field: its bytes outside 0x21–0x7E are percent-encoded, and its sample lines also encode
 * "/", "(" and ";" and write a space as "+" (`Mozilla%2F5.0+%28Macintosh%3B…`). A field that spells its spaces
 * "%20" keeps its "+" as it is. An escape that does not decode leaves the field as sent.
 */
export function akamaiText(value: unknown): string | null {
  const text = textOf(value);
  if (text === null || !/[%+]/.test(text)) return text;
  const spaced = text.includes("%20") ? text : text.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return text;
  }
}

/**
 * One DataStream 2 record: `reqTimeSec` (Unix seconds, with milliseconds after a dot), `cliIP`, `reqMethod`,
 * `reqPath` and `queryStr` (the query without its "?"), `statusCode`, `bytes`, `UA` and `referer` (encoded as
 * akamaiText reads them), `reqHost` (a stream of a property with several hostnames holds them all: the others'
 * requests are skipped). JSON records leave out the fields that would be "-".
 */
export function akamaiRecord(o: Record<string, unknown>, line: number): LogLineResult {
  return readLine(line, () => {
    const path = textOf(o.reqPath);
    if (!path) throw new LogLineError("no reqPath field");
    const query = textOf(o.queryStr);
    return entry(line, {
      ip: ipOf(o.cliIP),
      timestamp: timeOf(o.reqTimeSec),
      method: textOf(o.reqMethod) ?? "GET",
      path: pathOf(query ? `${path}?${query}` : path),
      protocol: null,
      status: statusOf(o.statusCode),
      bytes: bytesOf(o.bytes),
      referrer: akamaiText(o.referer),
      userAgent: akamaiText(o.UA),
      site: textOf(o.reqHost),
    });
  });
}
