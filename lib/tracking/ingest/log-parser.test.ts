import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { seededRandom } from "@/lib/stats/proportions";
import { withTrust } from "@/test/support/trust-proxy";
import { type LogLineResult, parseLogLine, parseLogTimestamp } from "./log-parser";
import { parseLog, parseLogStream } from "./log-stream";

const UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const COMBINED = `66.249.66.1 - - [22/Nov/2026:03:14:15 +0000] "GET /blog/post?x=1 HTTP/1.1" 200 5120 "https://www.google.com/" "${UA}"`;

function entry(line: string) {
  const result = parseLogLine(line);
  if (!result.ok) throw new Error(`expected an entry, got: ${result.error.reason}`);
  return result.entry;
}

function reason(line: string, options?: Parameters<typeof parseLogLine>[2]) {
  const result = parseLogLine(line, 7, options);
  if (result.ok) throw new Error("expected an error");
  expect(result.error.line).toBe(7);
  return result.error.reason;
}

async function collect(
  source: Parameters<typeof parseLogStream>[0],
  options?: Parameters<typeof parseLogStream>[1],
) {
  const results: LogLineResult[] = [];
  for await (const r of parseLogStream(source, options)) results.push(r);
  return results;
}

/** %t as a regular expression and Date read it: the fields by pattern, the day and hour checked by Date rolling them over. */
function referenceTime(text: string): number | null {
  const m =
    /^(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))? ([+-])(\d{2})(\d{2})$/.exec(
      text,
    );
  if (!m) return null;
  const [, dd, mon, yyyy, hh, mi, ss, fraction, sign, oh, om] = m as unknown as string[];
  const month = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].indexOf(
    mon!.toLowerCase(),
  );
  if (month < 0) return null;
  const [day, hour, minute, second] = [Number(dd), Number(hh), Number(mi), Number(ss)];
  const ms = fraction ? Number(fraction.padEnd(3, "0").slice(0, 3)) : 0;
  const local = Date.UTC(Number(yyyy), month, day, hour, minute, second, ms);
  // The day and hour checked before the seconds are added: a leap second (":60") is the next minute's first.
  const check = new Date(Date.UTC(Number(yyyy), month, day, hour));
  if (check.getUTCDate() !== day || check.getUTCHours() !== hour || minute > 59 || second > 60) return null;
  if (Number(oh) > 14 || Number(om) > 59) return null;
  return local - (Number(oh) * 60 + Number(om)) * (sign === "-" ? -1 : 1) * 60_000;
}

describe("parseLogTimestamp", () => {
  test("applies the zone offset", () => {
    expect(parseLogTimestamp("10/Oct/2000:13:55:36 -0700")?.toISOString()).toBe("2000-10-10T20:55:36.000Z");
    expect(parseLogTimestamp("01/Jan/2026:00:30:00 +0530")?.toISOString()).toBe("2025-12-31T19:00:00.000Z");
    expect(parseLogTimestamp("22/Nov/2026:03:14:15.250 +0000")?.toISOString()).toBe(
      "2026-11-22T03:14:15.250Z",
    );
    // A leap second is the next minute's first, even at the year's end.
    expect(parseLogTimestamp("31/Dec/2016:23:59:60 +0000")?.toISOString()).toBe("2017-01-01T00:00:00.000Z");
  });

  test("reads every %t text as a regular expression and Date.UTC read it", () => {
    // Texts near the format: real times, and each position changed to another character.
    const next = seededRandom(20261201);
    const months = [
      "Jan",
      "feb",
      "MAR",
      "Apr",
      "May",
      "Jun",
      "Jul",
      "Aug",
      "Sep",
      "Oct",
      "Nov",
      "Dec",
      "Foo",
    ];
    const two = (n: number) => String(n).padStart(2, "0");
    let valid = 0;
    for (let n = 0; n < 20_000; n++) {
      const fraction =
        next() < 0.3 ? `.${String(Math.floor(next() * 1e6)).slice(0, 1 + Math.floor(next() * 6))}` : "";
      let text = `${two(Math.floor(next() * 32))}/${months[Math.floor(next() * months.length)]}/${1996 + Math.floor(next() * 12)}:${two(Math.floor(next() * 25))}:${two(Math.floor(next() * 61))}:${two(Math.floor(next() * 62))}${fraction} ${next() < 0.5 ? "+" : "-"}${two(Math.floor(next() * 16))}${two(Math.floor(next() * 61))}`;
      if (next() < 0.2) {
        const at = Math.floor(next() * text.length);
        text =
          text.slice(0, at) + " /:.+-0a9Z"[Math.floor(next() * 10)] + text.slice(at + (next() < 0.5 ? 1 : 0));
      }
      const expected = referenceTime(text);
      expect(parseLogTimestamp(text)?.getTime() ?? null, text).toBe(expected);
      if (expected !== null) valid++;
    }
    expect(valid).toBeGreaterThan(5000);
  });

  test("rejects impossible dates", () => {
    for (const bad of [
      "31/Feb/2026:00:00:00 +0000",
      "10/Foo/2000:13:55:36 -0700",
      "10/Oct/2000:25:00:00 +0000",
      "10/Oct/2000 13:55:36",
    ]) {
      expect(parseLogTimestamp(bad), bad).toBeNull();
    }
  });
});

describe("parseLogLine", () => {
  test("combined log format", () => {
    expect(entry(COMBINED)).toEqual({
      line: 1,
      ip: "66.249.66.1",
      timestamp: new Date("2026-11-22T03:14:15Z"),
      method: "GET",
      path: "/blog/post?x=1",
      protocol: "HTTP/1.1",
      status: 200,
      bytes: 5120,
      referrer: "https://www.google.com/",
      userAgent: UA,
    });
  });

  test("Apache's own example, common and combined", () => {
    const common = '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326';
    expect(entry(common)).toMatchObject({
      path: "/apache_pb.gif",
      status: 200,
      referrer: null,
      userAgent: null,
    });
    expect(entry(common).timestamp.toISOString()).toBe("2000-10-10T20:55:36.000Z");
    const combined = `${common} "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"`;
    expect(entry(combined)).toMatchObject({
      referrer: "http://www.example.com/start.html",
      userAgent: "Mozilla/4.08 [en] (Win98; I ;Nav)",
    });
  });

  test("IPv6 clients, bracketed or not", () => {
    expect(entry(COMBINED.replace("66.249.66.1", "2001:4860:4801:10::1")).ip).toBe("2001:4860:4801:10::1");
    expect(entry(COMBINED.replace("66.249.66.1", "[2001:db8::1]")).ip).toBe("2001:db8::1");
    expect(entry(COMBINED.replace("66.249.66.1", "::ffff:66.249.66.1")).ip).toBe("::ffff:66.249.66.1");
  });

  test("a client logged with its port: the address without it", () => {
    expect(entry(COMBINED.replace("66.249.66.1", "[2001:db8::1]:51234")).ip).toBe("2001:db8::1");
    expect(entry(COMBINED.replace("66.249.66.1", "66.249.66.1:51234")).ip).toBe("66.249.66.1");
  });

  test("a host name in place of the address gives no ip", () => {
    expect(entry(COMBINED.replace("66.249.66.1", "crawl-66-249-66-1.googlebot.com")).ip).toBeNull();
  });

  test("escaped quotes: Apache's \\\" and nginx's \\x22", () => {
    const apache = entry(COMBINED.replace(`"${UA}"`, '"Mozilla/5.0 \\"Weird\\" Agent\\\\1"'));
    expect(apache.userAgent).toBe('Mozilla/5.0 "Weird" Agent\\1');
    const nginx = entry(
      COMBINED.replace('"https://www.google.com/"', '"https://example.com/?q=\\x22hi\\x22"'),
    );
    expect(nginx.referrer).toBe('https://example.com/?q="hi"');
  });

  test("escaped bytes decode as UTF-8, and C escapes as characters", () => {
    expect(entry(COMBINED.replace(`"${UA}"`, '"Caf\\xc3\\xa9 Agent\\tTab"')).userAgent).toBe(
      "Café Agent\tTab",
    );
  });

  test("dash fields become null", () => {
    const e = entry('10.0.0.1 - - [22/Nov/2026:03:14:15 +0000] "HEAD / HTTP/1.1" 304 - "-" "-"');
    expect(e).toMatchObject({ method: "HEAD", status: 304, bytes: null, referrer: null, userAgent: null });
  });

  test("fields after the user agent are ignored (nginx $request_time and friends)", () => {
    const e = entry(`${COMBINED} 0.012 0.010 "upstream-1" rt=0.5`);
    expect(e.userAgent).toBe(UA);
    expect(e.status).toBe(200);
  });

  test("timing fields with quoted values after the user agent, spaced or glued to its quote", () => {
    // nginx's upstream_time example: '"$http_user_agent"rt=$request_time uct="$upstream_connect_time" …'.
    const timing = 'rt=0.003 uct="0.000" uht="0.001" urt="0.001, 0.002"';
    expect(entry(`${COMBINED} ${timing}`).userAgent).toBe(UA);
    expect(entry(`${COMBINED}${timing}`).userAgent).toBe(UA);
    expect(entry(`${COMBINED} "-" ${timing} cs="-"`).userAgent).toBe(UA);
    // A quote inside the agent that nothing field-like follows stays in it.
    expect(entry(COMBINED.replace(`"${UA}"`, '"Agent "x" y"')).userAgent).toBe('Agent "x" y');
    expect(entry(COMBINED.replace(`"${UA}"`, '"Agent "x"y z"')).userAgent).toBe('Agent "x"y z');
  });

  test("an ISO 8601 time in the brackets (nginx's $time_iso8601)", () => {
    const e = entry(COMBINED.replace("22/Nov/2026:03:14:15 +0000", "2026-11-22T04:14:15+01:00"));
    expect(e.timestamp).toEqual(new Date("2026-11-22T03:14:15Z"));
    expect(
      entry(COMBINED.replace("22/Nov/2026:03:14:15 +0000", "2026-11-22T03:14:15.250Z")).timestamp,
    ).toEqual(new Date("2026-11-22T03:14:15.250Z"));
    expect(reason(COMBINED.replace("22/Nov/2026:03:14:15 +0000", "2026-02-31T03:14:15+00:00"))).toMatch(
      /invalid timestamp/,
    );
    expect(reason(COMBINED.replace("22/Nov/2026:03:14:15 +0000", "2026-11-22T03:14:15"))).toMatch(
      /invalid timestamp/,
    );
  });

  test("an absolute URL in the request line is reduced to its path", () => {
    const e = entry(COMBINED.replace("/blog/post?x=1", "http://example.com:8080/a/b?c=d#frag"));
    expect(e.path).toBe("/a/b?c=d");
  });

  test("HTTP/0.9 request lines and unencoded spaces in the target", () => {
    expect(entry(COMBINED.replace("GET /blog/post?x=1 HTTP/1.1", "GET /old"))).toMatchObject({
      path: "/old",
      protocol: null,
    });
    expect(entry(COMBINED.replace("/blog/post?x=1", "/a b"))).toMatchObject({
      path: "/a b",
      protocol: "HTTP/1.1",
    });
  });

  test("CRLF line endings and a byte-order mark", () => {
    expect(entry(`${COMBINED}\r`).userAgent).toBe(UA);
    expect(entry(`\uFEFF${COMBINED}`).ip).toBe("66.249.66.1");
  });

  const bad: [string, string, RegExp][] = [
    [
      "TLS handshake bytes sent to the HTTP port",
      '1.2.3.4 - - [22/Nov/2026:03:14:15 +0000] "\\x16\\x03\\x01\\x00\\xa5\\x01\\x00\\x00\\xa1\\x03\\x03" 400 157 "-" "-"',
      /invalid request line/,
    ],
    [
      "CONNECT has no path",
      '1.2.3.4 - - [22/Nov/2026:03:14:15 +0000] "CONNECT example.com:443 HTTP/1.1" 405 0 "-" "-"',
      /not a path/,
    ],
    [
      "truncated inside the user agent",
      `${COMBINED.slice(0, -20)}`,
      /truncated line: unterminated user agent/,
    ],
    [
      "truncated inside the request",
      '1.2.3.4 - - [22/Nov/2026:03:14:15 +0000] "GET /foo HT',
      /truncated line: unterminated request line/,
    ],
    [
      "truncated inside the timestamp",
      "1.2.3.4 - - [22/Nov/2026:03:1",
      /truncated line: unterminated timestamp/,
    ],
    ["truncated after the address", "1.2.3.4", /truncated line: no identity/],
    ["no status", '1.2.3.4 - - [22/Nov/2026:03:14:15 +0000] "GET / HTTP/1.1"', /truncated line: no status/],
    [
      "status out of range",
      '1.2.3.4 - - [22/Nov/2026:03:14:15 +0000] "GET / HTTP/1.1" 999 1',
      /invalid status/,
    ],
    ["bad timestamp", '1.2.3.4 - - [31/Feb/2026:03:14:15 +0000] "GET / HTTP/1.1" 200 1', /invalid timestamp/],
    [
      "not an access log at all",
      "Nov 22 03:14:15 host sshd[123]: Accepted publickey for root",
      /expected "\["/,
    ],
    ["blank", "   ", /empty line/],
  ];
  for (const [name, line, expected] of bad)
    test(`error: ${name}`, () => expect(reason(line)).toMatch(expected));

  test("very long lines are refused unless allowed", () => {
    const long = COMBINED.replace(UA, `${UA} ${"x".repeat(100_000)}`);
    expect(reason(long)).toMatch(/line too long: 100\d+ characters \(limit 16384\)/);
    expect(parseLogLine(long, 1, { maxLineLength: 200_000 }).ok).toBe(true);
  });
});

describe("parseLogStream", () => {
  const good = (n: number) => COMBINED.replace("/blog/post?x=1", `/page-${n}`);
  const log = [good(1), "garbage line", "", good(2), `${good(3)}`.replace(UA, "Agent é"), good(4)].join("\n");

  test("byte chunks split anywhere, even inside a character, parse like the whole text", async () => {
    const bytes = new TextEncoder().encode(`${log}\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    const results = await collect(Readable.from(chunks));
    expect(results).toEqual(await collect(log));
    expect(results.map((r) => (r.ok ? r.entry.path : `error@${r.error.line}`))).toEqual([
      "/page-1",
      "error@2",
      "/page-2",
      "/page-3",
      "/page-4",
    ]);
    const third = results[3];
    expect(third?.ok && third.entry.userAgent).toBe("Agent é");
    expect(third?.ok && third.entry.line).toBe(5); // the blank line still counts
  });

  test("strings are whole lines, as readline yields them", async () => {
    async function* lines() {
      yield good(1);
      yield "";
      yield `${good(2)}\n`;
    }
    const results = await collect(lines());
    expect(results.map((r) => r.ok && `${r.entry.line}:${r.entry.path}`)).toEqual(["1:/page-1", "3:/page-2"]);
  });

  test("an over-long line in a stream is reported without stopping the rest", async () => {
    const huge = `${good(1)} ${"y".repeat(50_000)}`;
    const bytes = new TextEncoder().encode([huge, good(2)].join("\n"));
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 4096) chunks.push(bytes.subarray(i, i + 4096));
    const results = await collect(chunks, { maxLineLength: 1000 });
    expect(results[0]).toEqual({
      ok: false,
      error: { line: 1, reason: `line too long: ${huge.length} characters (limit 1000)` },
    });
    expect(results[1]?.ok && results[1].entry.path).toBe("/page-2");
  });

  test("a final line without a newline is parsed", async () => {
    const results = await collect(new TextEncoder().encode(good(9)));
    expect(results).toHaveLength(1);
    expect(results[0]?.ok).toBe(true);
  });
});

describe("parseLog", () => {
  test("returns the entries and one error per bad line", () => {
    const { entries, errors } = parseLog(`${COMBINED}\nnonsense\n\n${COMBINED}\n`);
    expect(entries.map((e) => e.line)).toEqual([1, 4]);
    expect(errors).toEqual([{ line: 2, reason: "truncated line: no identity" }]);
  });
});

describe("forwarded-for lists and virtual hosts", () => {
  const REST = `- - [22/Nov/2026:03:14:15 +0000] "GET /a HTTP/1.1" 200 10 "-" "${UA}"`;

  test("an nginx line that begins with an X-Forwarded-For list: the connecting address unless a proxy is trusted", () => {
    const line = `10.0.0.2, 10.0.0.1, 85.181.35.98 ${REST}`;
    withTrust(undefined, () =>
      expect(entry(line)).toMatchObject({ ip: "85.181.35.98", path: "/a", status: 200 }),
    );
    // Trusted proxies: walked back from the connecting address while each hop is one of them.
    withTrust("85.181.35.0/24, 10.0.0.1", () => expect(entry(line).ip).toBe("10.0.0.2"));
    withTrust("85.181.35.98", () => expect(entry(line).ip).toBe("10.0.0.1"));
    // A hop count: that many entries back from the connecting address.
    withTrust("2", () => expect(entry(line).ip).toBe("10.0.0.2"));
    withTrust("1", () => expect(entry(line).ip).toBe("10.0.0.1"));
    // A client-supplied list behind a public address that is no trusted proxy is not believed.
    withTrust("10.0.0.0/8", () => expect(entry(`203.0.113.5, 66.249.66.1 ${REST}`).ip).toBe("66.249.66.1"));
    withTrust("10.0.0.0/8", () => expect(entry(`66.249.66.1, 10.0.0.1 ${REST}`).ip).toBe("66.249.66.1"));
  });

  test("vhost-prefixed lines (vhost_combined), with a single client or a forwarded-for list", () => {
    withTrust(undefined, () => {
      expect(entry(`example.com:80 85.181.35.98 ${REST}`)).toMatchObject({ ip: "85.181.35.98", path: "/a" });
      expect(entry(`example.com:443 10.0.0.2, 85.181.35.98 ${REST}`)).toMatchObject({ ip: "85.181.35.98" });
      expect(entry(`example.com 2001:db8::7 ${REST}`).ip).toBe("2001:db8::7");
    });
    withTrust("1", () =>
      expect(entry(`example.com:80 66.249.66.1, 10.0.0.1 ${REST}`).ip).toBe("66.249.66.1"),
    );
  });
});

// The nginx access-log lines of Elastic's log shipper tests (github.com/elastic/beats, filebeat/module/nginx/access/
// test/test.log, test-with-host.log and the vhost line of access.log; Apache License 2.0): forwarded-for lists
// quoted or not, the connecting address after them, virtual hosts by name, name:port or address, host names
// where an address would be, and requests that are not requests. Each line is read, or refused with its reason;
// the client is the connecting address (no proxy trusted here), as the trusted-proxy rule takes it.
describe("Elastic's nginx access-log test lines", () => {
  const FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.12; rv:49.0) Gecko/20100101 Firefox/49.0";
  const FF15 = '"Mozilla/5.0 (Windows NT 6.1; rv:15.0) Gecko/20120716 Firefox/15.0a2" "-"';
  const FACEBOT =
    "Mozilla/5.0 (compatible; Facebot 1.0; https://developers.facebook.com/docs/sharing/webmasters/crawler)";
  const ocelot = `[07/Dec/2016:11:05:07 +0100] "GET /ocelot HTTP/1.1" 200 571 "-" "${FIREFOX}"`;
  const cloudfront =
    '[22/Jan/2016:13:18:29 +0000] "GET /assets/xxxx?q=100 HTTP/1.1" 200 25507 "-" "Amazon CloudFront"';
  const facebot = `[30/Dec/2016:06:47:09 +0000] "GET /test.html HTTP/1.1" 404 8571 "-" "${FACEBOT}"`;
  const test2 = `[29/May/2017:19:02:48 +0000] "GET /test2 HTTP/1.1" 200 612 "-" ${FF15}`;
  const lines: [string, { ip: string | null; path: string; status: number; at: string } | RegExp][] = [
    [
      `10.0.0.2, 10.0.0.1, 127.0.0.1 - - ${ocelot}`,
      { ip: "127.0.0.1", path: "/ocelot", status: 200, at: "2016-12-07T10:05:07.000Z" },
    ],
    [
      `172.17.0.1 - - [29/May/2017:19:02:48 +0000] "GET /stringpatch HTTP/1.1" 404 612 "-" ${FF15}`,
      { ip: "172.17.0.1", path: "/stringpatch", status: 404, at: "2017-05-29T19:02:48.000Z" },
    ],
    [
      `10.0.0.2, 10.0.0.1, 85.181.35.98 - - ${ocelot}`,
      { ip: "85.181.35.98", path: "/ocelot", status: 200, at: "2016-12-07T10:05:07.000Z" },
    ],
    [
      `"10.5.102.222, 199.96.1.1, 204.246.1.1" 10.2.1.185 - - ${cloudfront}`,
      { ip: "10.2.1.185", path: "/assets/xxxx?q=100", status: 200, at: "2016-01-22T13:18:29.000Z" },
    ],
    [
      `2a03:0000:10ff:f00f:0000:0000:0:8000, 10.225.192.17 10.2.2.121 - - ${facebot}`,
      { ip: "10.2.2.121", path: "/test.html", status: 404, at: "2016-12-30T06:47:09.000Z" },
    ],
    ['127.0.0.1 - - [12/Apr/2018:09:48:40 +0200] "" 400 0 "-" "-"', /no request line/],
    [
      `example.com 10.0.0.2, 10.0.0.1, 81.2.69.143 - - ${ocelot}`,
      { ip: "81.2.69.143", path: "/ocelot", status: 200, at: "2016-12-07T10:05:07.000Z" },
    ],
    [
      `example.com:80 81.2.69.143 - - ${ocelot}`,
      { ip: "81.2.69.143", path: "/ocelot", status: 200, at: "2016-12-07T10:05:07.000Z" },
    ],
    [
      `example.com:80 "10.5.102.222, 175.16.199.1, 204.246.1.1" 10.2.1.185 - - ${cloudfront}`,
      { ip: "10.2.1.185", path: "/assets/xxxx?q=100", status: 200, at: "2016-01-22T13:18:29.000Z" },
    ],
    [
      `1.128.3.4 2a02:cf40:10ff:f00f:0000:0000:0:8000, 10.225.192.17 10.2.2.121 - - ${facebot}`,
      { ip: "10.2.2.121", path: "/test.html", status: 404, at: "2016-12-30T06:47:09.000Z" },
    ],
    ['1.128.3.4:80 127.0.0.1 - - [12/Apr/2018:09:48:40 +0200] "" 400 0 "-" "-"', /no request line/],
    [
      'example.com:80 unix: - - [26/Feb/2019:15:39:42 +0100] "hello" 400 173 "-" "-"',
      /invalid request line: "hello"/,
    ],
    [
      `1.128.3.4 localhost - - ${test2}`,
      { ip: null, path: "/test2", status: 200, at: "2017-05-29T19:02:48.000Z" },
    ],
    [
      `example.com localhost, localhost - - ${test2}`,
      { ip: null, path: "/test2", status: 200, at: "2017-05-29T19:02:48.000Z" },
    ],
    [
      'lessons.example.com 192.168.0.1 - - [09/Jun/2020:12:10:39 -0700] "GET /A%20Beka%20G1%20Howe/029_AND_30/15%20reading%20elephants.mp4 HTTP/1.1" 206 7648063 "http://lessons.example.com/A%20Beka%20G1%20Howe/029_AND_30/15%20reading%20elephants.mp4" "Mozilla/5.0 (Linux; Android 5.1.1; KFFOWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/81.2.16 like Chrome/81.0.4044.138 Safari/537.36"',
      {
        ip: "192.168.0.1",
        path: "/A%20Beka%20G1%20Howe/029_AND_30/15%20reading%20elephants.mp4",
        status: 206,
        at: "2020-06-09T19:10:39.000Z",
      },
    ],
  ];

  test.each(lines)("%s", (line, expected) => {
    const before = process.env.TRUST_PROXY;
    delete process.env.TRUST_PROXY;
    try {
      const result = parseLogLine(line);
      if (expected instanceof RegExp) {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.reason).toMatch(expected);
        return;
      }
      expect(result.ok ? undefined : result.error).toBeUndefined();
      if (!result.ok) return;
      const { ip, path, status, timestamp } = result.entry;
      expect({ ip, path, status, at: timestamp.toISOString() }).toEqual(expected);
    } finally {
      if (before !== undefined) process.env.TRUST_PROXY = before;
    }
  });

  test("host names in a forwarded-for list behind trusted proxies: read, never an exception", () => {
    const before = process.env.TRUST_PROXY;
    process.env.TRUST_PROXY = "10.0.0.0/8, 127.0.0.1";
    try {
      expect(entry(`example.com localhost, localhost - - ${test2}`).ip).toBeNull();
      // A trusted proxy that forwarded no address: the client is unknown beyond it, the proxy is kept.
      expect(entry(`unix:, 10.0.0.1 - - ${test2}`).ip).toBe("10.0.0.1");
      expect(entry(`66.249.66.1, 10.0.0.1 - - ${test2}`).ip).toBe("66.249.66.1");
    } finally {
      if (before === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = before;
    }
  });

  test("behind a trusted load balancer, the forwarded-for list names the client", () => {
    const before = process.env.TRUST_PROXY;
    process.env.TRUST_PROXY = "10.0.0.0/8";
    try {
      expect(entry(`"10.5.102.222, 199.96.1.1, 204.246.1.1" 10.2.1.185 - - ${cloudfront}`).ip).toBe(
        "204.246.1.1",
      );
      expect(entry(`2a03:0000:10ff:f00f:0000:0000:0:8000, 10.225.192.17 10.2.2.121 - - ${facebot}`).ip).toBe(
        "2a03:0:10ff:f00f::8000",
      );
    } finally {
      if (before === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = before;
    }
  });
});
