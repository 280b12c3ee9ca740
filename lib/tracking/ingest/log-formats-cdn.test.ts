import { describe, expect, test } from "vitest";
import { akamaiText } from "./log-formats-cdn";
import { parseLogLine } from "./log-parser";

// The JSON sample line of Akamai's DataStream 2 log-format reference (its fields as the structured sample orders
// them), trimmed to the fields a visit reads and a few it does not.
const SAMPLE = {
  version: 1,
  streamId: "12345",
  cp: "123456",
  reqId: "1239f220",
  reqTimeSec: "1573840000",
  bytes: "4995",
  cliIP: "128.147.28.68",
  statusCode: "206",
  proto: "HTTPS",
  reqHost: "test.hostname.net",
  reqMethod: "GET",
  reqPath: "/path1/path2/file.ext",
  reqPort: "443",
  rspContentLen: "5000",
  rspContentType: "text/html",
  UA: "Mozilla%2F5.0+%28Macintosh%3B+Intel+Mac+OS+X+10_14_3%29",
  tlsVersion: "TLSv1",
  queryStr: "param=value",
  accLang: "en-US",
  referer: "https%3A%2F%2Ftest.referrer.net%2Fen-US%2Fdocs%2FWeb%2Ftest",
  xForwardedFor: "8.47.28.38",
  country: "IN",
};

describe("Akamai DataStream 2", () => {
  test("the reference sample: time, client, request, status, decoded user agent and referrer, host", () => {
    for (const format of ["akamai", "auto"] as const) {
      const result = parseLogLine(JSON.stringify(SAMPLE), 1, { format });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.entry).toMatchObject({
        ip: "128.147.28.68",
        method: "GET",
        path: "/path1/path2/file.ext?param=value",
        status: 206,
        bytes: 4995,
        userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_3)",
        referrer: "https://test.referrer.net/en-US/docs/Web/test",
        site: "test.hostname.net",
      });
      expect(result.entry.timestamp.toISOString()).toBe("2019-11-15T17:46:40.000Z");
    }
  });

  test("milliseconds after the seconds, no query, fields left out as JSON records leave them", () => {
    const { queryStr: _q, referer: _r, bytes: _b, ...rest } = SAMPLE;
    const result = parseLogLine(JSON.stringify({ ...rest, reqTimeSec: "1573840000.125" }), 1, {
      format: "akamai",
    });
    expect(result).toMatchObject({
      ok: true,
      entry: { path: "/path1/path2/file.ext", referrer: null, bytes: null },
    });
    if (result.ok) expect(result.entry.timestamp.toISOString()).toBe("2019-11-15T17:46:40.125Z");
  });

  test.each([
    [
      "Mozilla%2F5.0+%28compatible%3B+GPTBot%2F1.2%3B+%2Bhttps%3A%2F%2Fopenai.com%2Fgptbot%29",
      "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)",
    ],
    // Only what lies outside 0x21–0x7E encoded: the "+" is the agent's own.
    [
      "Mozilla/5.0%20(compatible;%20Googlebot/2.1;%20+http://www.google.com/bot.html)",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    ],
    ["curl/8.4.0", "curl/8.4.0"],
    ["bad%escape+here", "bad%escape+here"],
    ["-", null],
  ])("the field %s reads %s", (raw, expected) => expect(akamaiText(raw)).toBe(expected));

  test("a record without its path is refused with the reason", () => {
    const { reqPath: _p, ...rest } = SAMPLE;
    expect(parseLogLine(JSON.stringify(rest), 1, { format: "akamai" })).toMatchObject({
      ok: false,
      error: { reason: "no reqPath field" },
    });
  });
});
