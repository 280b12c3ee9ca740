import { describe, expect, test } from "vitest";
import { detectLineFormat } from "./log-formats";
import { type LogLineResult, parseLogLine } from "./log-parser";
import { parseLog, parseLogStream } from "./log-stream";

// Lines in the shapes the servers and services document: Apache's vhost_combined LogFormat, nginx
// `log_format ... escape=json`, Cloudflare Logpush http_requests fields, the AWS ALB access-log example
// ("Access log entries", Elastic Load Balancing guide) and CloudFront standard-log fields.
const entryOf = (r: LogLineResult) => {
  if (!r.ok) throw new Error(r.error.reason);
  return r.entry;
};

describe("combined log edge cases", () => {
  // Was rejected as an invalid request line; a 400/408 with no request is read and skipped.
  test("a dash request line (a client that sent nothing) is skipped with its reason", () => {
    const r = parseLogLine('1.2.3.4 - - [22/Nov/2026:03:14:15 +0000] "-" 400 0 "-" "-"', 3);
    expect(r).toEqual({
      ok: false,
      skip: true,
      error: { line: 3, reason: expect.stringMatching(/no request line/) },
    });
  });

  test.each([
    ['203.0.113.5 - - [10/Oct/2025:13:55:36 +0000] "-" 408 0 "-" "-"', 1],
    ['203.0.113.5 - - [10/Oct/2025:13:55:36 +0000] "" 400 0 "-" "-"', 1],
  ])("a request line of %s is read and skipped, not rejected", (line, lineNo) => {
    const r = parseLogLine(line, lineNo);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.skip).toBe(true);
    expect(!r.ok && r.error.reason).toMatch(/no request line/);
  });

  test('escaped quotes, Apache (\\") and nginx (\\x22) style', () => {
    const apache = entryOf(
      parseLogLine(
        '1.2.3.4 - - [10/Oct/2025:13:55:36 +0000] "GET / HTTP/1.1" 200 5 "-" "Bot \\"quoted\\" 1.0"',
      ),
    );
    expect(apache.userAgent).toBe('Bot "quoted" 1.0');
    const nginx = entryOf(
      parseLogLine(
        '1.2.3.4 - - [10/Oct/2025:13:55:36 +0000] "GET / HTTP/1.1" 200 5 "-" "Bot \\x22q\\x22 1.0"',
      ),
    );
    expect(nginx.userAgent).toBe('Bot "q" 1.0');
  });

  test("an unescaped quote inside the user agent does not cut it short", () => {
    const e = entryOf(
      parseLogLine(
        '1.2.3.4 - - [10/Oct/2025:13:55:36 +0000] "GET / HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; "Fancy" Bot/1.0)"',
      ),
    );
    expect(e.userAgent).toBe('Mozilla/5.0 (compatible; "Fancy" Bot/1.0)');
    const withExtra = entryOf(
      parseLogLine(
        '1.2.3.4 - - [10/Oct/2025:13:55:36 +0000] "GET / HTTP/1.1" 200 5 "-" "Agent "x" y" "198.51.100.7" 0.012',
      ),
    );
    expect(withExtra.userAgent).toBe('Agent "x" y');
  });

  test("vhost_combined, detected and named", () => {
    const line =
      'www.example.com:443 66.249.66.1 - - [10/Oct/2025:13:55:36 +0000] "GET /a?b=1 HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"';
    expect(detectLineFormat(line)).toBe("vhost_combined");
    for (const format of ["auto", "vhost_combined"] as const) {
      const e = entryOf(parseLogLine(line, 1, { format }));
      expect(e).toMatchObject({ ip: "66.249.66.1", path: "/a?b=1", status: 200 });
      expect(e.userAgent).toContain("Googlebot");
    }
  });
});

describe("JSON lines", () => {
  test("nginx escape=json", () => {
    const line = JSON.stringify({
      time_iso8601: "2025-10-10T13:55:36+00:00",
      remote_addr: "20.171.206.10",
      request: "GET /pricing HTTP/1.1",
      status: "200",
      body_bytes_sent: "1234",
      http_referer: "",
      http_user_agent:
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
    });
    expect(detectLineFormat(line)).toBe("nginx_json");
    const e = entryOf(parseLogLine(line));
    expect(e).toMatchObject({
      ip: "20.171.206.10",
      method: "GET",
      path: "/pricing",
      status: 200,
      bytes: 1234,
      referrer: null,
    });
    expect(e.timestamp.toISOString()).toBe("2025-10-10T13:55:36.000Z");
  });

  test("nginx JSON with time_local and request_uri", () => {
    const line =
      '{"time_local":"10/Oct/2025:15:55:36 +0200","remote_addr":"1.2.3.4","request_method":"HEAD","request_uri":"/x","status":301,"http_user_agent":"curl/8.0"}';
    const e = entryOf(parseLogLine(line, 1, { format: "nginx_json" }));
    expect(e).toMatchObject({ method: "HEAD", path: "/x", status: 301, userAgent: "curl/8.0" });
    expect(e.timestamp.toISOString()).toBe("2025-10-10T13:55:36.000Z");
  });

  test("Cloudflare Logpush http_requests (RFC 3339 and unixnano timestamps)", () => {
    const base = {
      ClientIP: "2a06:98c0:3600::103",
      ClientRequestHost: "www.example.com",
      ClientRequestMethod: "GET",
      ClientRequestURI: "/blog/post?utm_source=chatgpt.com",
      ClientRequestProtocol: "HTTP/2",
      ClientRequestReferer: "https://chatgpt.com/",
      ClientRequestUserAgent:
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
      EdgeResponseStatus: 200,
      EdgeResponseBytes: 4096,
    };
    for (const ts of ["2025-10-10T13:55:36Z", 1760104536000000000]) {
      const e = entryOf(parseLogLine(JSON.stringify({ ...base, EdgeStartTimestamp: ts })));
      expect(e).toMatchObject({
        ip: "2a06:98c0:3600::103",
        path: "/blog/post?utm_source=chatgpt.com",
        status: 200,
      });
      expect(e.referrer).toBe("https://chatgpt.com/");
      expect(e.timestamp.toISOString()).toBe("2025-10-10T13:55:36.000Z");
    }
  });

  test("Cloudflare Logpush's destination check is skipped, not rejected, where the format is cloudflare", () => {
    for (const check of ["test", "test\r", '{"content":"tests"}']) {
      expect(parseLogLine(check, 1, { format: "cloudflare" })).toMatchObject({ ok: false, skip: true });
    }
    // Elsewhere the same text is what it looks like: a line nobody can read.
    for (const other of [parseLogLine("test", 1, { format: "nginx_json" }), parseLogLine("test", 1)]) {
      expect(other.ok).toBe(false);
      expect(other).not.toHaveProperty("skip", true);
    }
    // A record that holds more than the check's one field is read as a record (and refused without its URI).
    expect(
      parseLogLine('{"content":"tests","ClientIP":"1.2.3.4"}', 1, { format: "cloudflare" }),
    ).toMatchObject({
      ok: false,
      error: { reason: "no ClientRequestURI field" },
    });
  });

  test.each([
    ["{not json", /not valid JSON/],
    ["[1,2]", /not a JSON object/],
    ['{"remote_addr":"1.2.3.4","status":200}', /no "request"/],
    ['{"request":"GET / HTTP/1.1","time_iso8601":"yesterday"}', /invalid timestamp/],
    ['{"request":"GET / HTTP/1.1","time_iso8601":"2025-10-10T13:55:36Z","status":"abc"}', /invalid status/],
  ])("%s is rejected with a reason", (line, reason) => {
    const r = parseLogLine(line, 7, { format: "nginx_json" });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatchObject({ line: 7 });
    expect(!r.ok && r.error.reason).toMatch(reason);
  });
});

describe("AWS Application Load Balancer", () => {
  const line =
    'https 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.086 0.048 0.037 200 200 0 57 "GET https://www.example.com:443/ HTTP/1.1" "curl/7.46.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337281-1d84f3d73c47ec4e58577259" "www.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 2018-07-02T22:22:48.364000Z "authenticate,forward" "-" "-" "10.0.0.1:80" "200" "-" "-"';

  test("the documented example line", () => {
    expect(detectLineFormat(line)).toBe("alb");
    const e = entryOf(parseLogLine(line, 1, { format: "alb" }));
    expect(e).toMatchObject({
      ip: "192.168.131.39",
      method: "GET",
      path: "/",
      status: 200,
      bytes: 57,
      userAgent: "curl/7.46.0",
    });
    expect(e.timestamp.toISOString()).toBe("2018-07-02T22:23:00.186Z");
  });

  test("a request ALB could not parse is skipped; a short line is rejected", () => {
    const dashes = line.replace('"GET https://www.example.com:443/ HTTP/1.1"', '"- - - "');
    const r = parseLogLine(dashes, 1, { format: "alb" });
    expect(!r.ok && r.skip).toBe(true);
    const short = parseLogLine("https 2018-07-02T22:23:00Z app/x 1.2.3.4:1", 2, { format: "alb" });
    expect(!short.ok && short.error.reason).toMatch(/not an ALB log line/);
  });
});

describe("Elastic's load balancer test lines", () => {
  // From the log shipper's AWS module tests (github.com/elastic/beats, x-pack/filebeat/module/aws/elb/test):
  // websocket and HTTP/2 lines, a Lambda target's error, requests the balancer could not read, and the Classic
  // Load Balancer's layout, which has no type field.
  const alb = (type: string, request: string, ua = '"curl/7.46.0"') =>
    `${type} 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 10.0.0.140:40914 10.0.1.192:8010 0.001 0.003 0.000 101 101 218 587 ${request} ${ua} - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337364-23a8c76965a2ef7629b185e3" "-" "-" 1 2018-07-02T22:22:48.364000Z "forward" "-" "-"`;

  test("websocket and HTTP/2 requests are read in both modes", () => {
    for (const [type, request] of [
      ["ws", '"GET http://10.0.0.30:80/ HTTP/1.1"'],
      ["wss", '"GET https://10.0.0.30:443/chat HTTP/1.1"'],
      ["h2", '"GET https://10.0.2.105:773/ HTTP/2.0"'],
    ] as const) {
      const line = alb(type, request, type === "h2" ? '"curl/7.46.0"' : '"-"');
      expect(detectLineFormat(line)).toBe("alb");
      expect(entryOf(parseLogLine(line))).toMatchObject({ ip: "10.0.0.140", status: 101 });
    }
  });

  test('a request the balancer could not read ("- - -", "- URL -") is skipped, not rejected', () => {
    for (const request of ['"- - -"', '"- http://www.example.com:80- -"']) {
      const r = parseLogLine(alb("http", request, '"-"'));
      expect(!r.ok && r.skip).toBe(true);
    }
  });

  test("Classic Load Balancer lines: time first, no type", () => {
    const https =
      '2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000086 0.001048 0.001337 200 200 0 57 "GET https://www.example.com:443/ HTTP/1.1" "curl/7.38.0" DHE-RSA-AES128-SHA TLSv1.2';
    const http =
      '2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 - -1 -1 -1 504 0 0 0 "GET http://www.example.com:80/docs?a=1 HTTP/1.1" "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)" - -';
    expect(detectLineFormat(https)).toBe("alb");
    expect(detectLineFormat(http)).toBe("alb");
    expect(entryOf(parseLogLine(https))).toMatchObject({
      ip: "192.168.131.39",
      path: "/",
      status: 200,
      bytes: 57,
      userAgent: "curl/7.38.0",
    });
    const e = entryOf(parseLogLine(http, 1, { format: "alb" }));
    expect(e).toMatchObject({ path: "/docs?a=1", status: 504, userAgent: expect.stringContaining("GPTBot") });
    expect(e.timestamp.toISOString()).toBe("2015-05-13T23:39:43.945Z");
    const short = parseLogLine("2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 -", 3, {
      format: "alb",
    });
    expect(!short.ok && short.error.reason).toMatch(/not a Classic Load Balancer log line/);
  });
});

describe("CloudFront", () => {
  test("standard logs: #Fields header, tab-separated, URL-encoded user agent", async () => {
    const log = [
      "#Version: 1.0",
      "#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query",
      [
        "2019-12-04",
        "21:02:31",
        "LAX1",
        "392",
        "192.0.2.100",
        "GET",
        "d111111abcdef8.cloudfront.net",
        "/index.html",
        "200",
        "-",
        "Mozilla/5.0%20(compatible;%20ClaudeBot/1.0;%20+claudebot@anthropic.com)",
        "a=1",
      ].join("\t"),
    ].join("\n");
    const results = [];
    for await (const r of parseLogStream(log, { format: "cloudfront" })) results.push(r);
    expect(results).toHaveLength(1);
    const e = entryOf(results[0] as LogLineResult);
    expect(e).toMatchObject({ line: 3, ip: "192.0.2.100", path: "/index.html?a=1", status: 200 });
    expect(e.userAgent).toBe("Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)");
    expect(e.timestamp.toISOString()).toBe("2019-12-04T21:02:31.000Z");
  });

  test("detected without a header (default field order)", () => {
    const line =
      "2019-12-04\t21:02:31\tLAX1\t392\t192.0.2.100\tGET\td1.cloudfront.net\t/a\t404\t-\tcurl/8.0\t-";
    expect(detectLineFormat(line)).toBe("cloudfront");
    expect(entryOf(parseLogLine(line))).toMatchObject({ path: "/a", status: 404, userAgent: "curl/8.0" });
  });
});

describe("a whole mixed upload", () => {
  test("every unreadable line is reported with its number and reason; skipped lines are not errors", () => {
    const log = [
      '1.2.3.4 - - [10/Oct/2025:13:55:36 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"',
      '1.2.3.4 - - [10/Oct/2025:13:55:36 +0000] "-" 408 0 "-" "-"',
      "garbage",
      '{"request":"GET /j HTTP/1.1","time_iso8601":"2025-10-10T13:55:36Z","status":200}',
    ].join("\n");
    const { entries, errors } = parseLog(log);
    expect(entries.map((e) => e.path)).toEqual(["/", "/j"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.line).toBe(3);
  });
});
