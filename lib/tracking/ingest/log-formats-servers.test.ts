import { describe, expect, test } from "vitest";
import { withTrust } from "@/test/support/trust-proxy";
import { detectLineFormat } from "./log-formats";
import { type LogLineResult, parseLogLine } from "./log-parser";
import { jsonArrayAsRecords, parseLog, parseLogStream } from "./log-stream";

// Lines in the shapes the servers document: Caddy's JSON access log ("handled request", headers as lists),
// Traefik's JSON access log (its field names, headers kept as request_<Name>), Google Cloud Logging's LogEntry with
// an HttpRequest (string int64 sizes, RFC 3339 times with nanoseconds), IIS's W3C extended log (its default
// "#Fields:" and Azure App Service's), Vercel's log drain records.
const entryOf = (r: LogLineResult) => {
  if (!r.ok) throw new Error(r.error.reason);
  return r.entry;
};
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

describe("Caddy", () => {
  const caddy = (over: Record<string, unknown> = {}, request: Record<string, unknown> = {}) =>
    JSON.stringify({
      level: "info",
      ts: 1764417600.5241024,
      logger: "http.log.access.log0",
      msg: "handled request",
      request: {
        remote_ip: "10.0.0.7",
        remote_port: "41342",
        client_ip: "66.249.66.1",
        proto: "HTTP/2.0",
        method: "GET",
        host: "example.com",
        uri: "/pricing?plan=pro",
        headers: { "User-Agent": [GOOGLEBOT], Accept: ["*/*"], Referer: ["https://www.google.com/"] },
        tls: { resumed: false, version: 772, cipher_suite: 4865, proto: "h2", server_name: "example.com" },
        ...request,
      },
      bytes_read: 0,
      user_id: "",
      duration: 0.000929675,
      size: 10900,
      status: 200,
      resp_headers: { Server: ["Caddy"] },
      ...over,
    });

  test("a handled request: the client after trusted proxies, its headers, Unix seconds", () => {
    for (const format of ["auto", "caddy"] as const) {
      expect(entryOf(parseLogLine(caddy(), 1, { format }))).toEqual({
        line: 1,
        ip: "66.249.66.1",
        timestamp: new Date("2025-11-29T12:00:00.524Z"),
        method: "GET",
        path: "/pricing?plan=pro",
        protocol: "HTTP/2.0",
        status: 200,
        bytes: 10900,
        referrer: "https://www.google.com/",
        userAgent: GOOGLEBOT,
      });
    }
  });

  test("older Caddy without client_ip, its other time formats, a connection closed before an answer", () => {
    const old = entryOf(parseLogLine(caddy({ ts: "2026-11-29T12:00:00.250Z" }, { client_ip: undefined })));
    expect(old.ip).toBe("10.0.0.7");
    const older = entryOf(
      parseLogLine(caddy({}, { client_ip: undefined, remote_ip: undefined, remote_addr: "10.0.0.8:41342" })),
    );
    expect(older.ip).toBe("10.0.0.8");
    expect(old.timestamp.toISOString()).toBe("2026-11-29T12:00:00.250Z");
    expect(entryOf(parseLogLine(caddy({ ts: 1764417600524 }))).timestamp.toISOString()).toBe(
      "2025-11-29T12:00:00.524Z",
    );
    expect(entryOf(parseLogLine(caddy({ ts: "29/Nov/2026:13:00:00 +0100" }))).timestamp.toISOString()).toBe(
      "2026-11-29T12:00:00.000Z",
    );
    expect(entryOf(parseLogLine(caddy({ status: 0 }))).status).toBeNull();
  });

  test("a signed request's headers and the host they sign", () => {
    const e = entryOf(
      parseLogLine(
        caddy(
          {},
          {
            headers: {
              "User-Agent": ["Mozilla/5.0 Agent"],
              Signature: ["sig1=:abc=:"],
              "Signature-Input": ['sig1=("@authority");keyid="k";tag="web-bot-auth"'],
              "Signature-Agent": ['"https://agent.example"'],
            },
          },
        ),
      ),
    );
    expect(e).toMatchObject({
      signature: "sig1=:abc=:",
      signatureInput: 'sig1=("@authority");keyid="k";tag="web-bot-auth"',
      signatureAgent: '"https://agent.example"',
      host: "example.com",
    });
  });

  test("a record without its request is refused with the reason", () => {
    const r = parseLogLine(JSON.stringify({ ts: 1, request: { method: "GET" } }), 4, { format: "caddy" });
    expect(r).toEqual({ ok: false, error: { line: 4, reason: "no request.uri field" } });
  });
});

describe("Traefik", () => {
  const traefik = (over: Record<string, unknown> = {}) =>
    JSON.stringify({
      ClientAddr: "20.171.207.2:52436",
      ClientHost: "20.171.207.2",
      ClientPort: "52436",
      ClientUsername: "-",
      DownstreamContentSize: 1024,
      DownstreamStatus: 200,
      Duration: 1234567,
      OriginContentSize: 1024,
      OriginDuration: 1000000,
      OriginStatus: 200,
      Overhead: 234567,
      RequestAddr: "example.com",
      RequestContentSize: 0,
      RequestCount: 12,
      RequestHost: "example.com",
      RequestMethod: "GET",
      RequestPath: "/blog/post?x=1",
      RequestPort: "-",
      RequestProtocol: "HTTP/1.1",
      RequestScheme: "https",
      RetryAttempts: 0,
      RouterName: "web@docker",
      ServiceAddr: "172.18.0.3:80",
      ServiceName: "web@docker",
      ServiceURL: { Scheme: "http", Host: "172.18.0.3:80" },
      StartLocal: "2026-11-29T13:00:00.123456789+01:00",
      StartUTC: "2026-11-29T12:00:00.123456789Z",
      entryPointName: "websecure",
      level: "info",
      msg: "",
      "request_User-Agent":
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      request_Referer: "-",
      time: "2026-11-29T12:00:00Z",
      ...over,
    });

  test("a request with the headers kept", () => {
    for (const format of ["auto", "traefik"] as const) {
      expect(entryOf(parseLogLine(traefik(), 2, { format }))).toEqual({
        line: 2,
        ip: "20.171.207.2",
        timestamp: new Date("2026-11-29T12:00:00.123Z"),
        method: "GET",
        path: "/blog/post?x=1",
        protocol: "HTTP/1.1",
        status: 200,
        bytes: 1024,
        referrer: null,
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      });
    }
  });

  test("a signed request's headers, kept by name, and the host they sign", () => {
    const e = entryOf(
      parseLogLine(
        traefik({
          request_Signature: "sig1=:abc=:",
          "request_Signature-Input": 'sig1=("@authority");keyid="k";tag="web-bot-auth"',
          "request_Signature-Agent": '"https://agent.example"',
        }),
      ),
    );
    expect(e).toMatchObject({
      signature: "sig1=:abc=:",
      signatureInput: 'sig1=("@authority");keyid="k";tag="web-bot-auth"',
      signatureAgent: '"https://agent.example"',
      host: "example.com",
    });
  });

  test("behind a proxy: a kept X-Forwarded-For header, believed by the trusted-proxy rule", () => {
    const line = traefik({ ClientHost: "10.1.0.9", "request_X-Forwarded-For": "66.249.66.1, 10.1.0.8" });
    withTrust(undefined, () => expect(entryOf(parseLogLine(line)).ip).toBe("10.1.0.9"));
    withTrust("10.1.0.0/16", () => expect(entryOf(parseLogLine(line)).ip).toBe("66.249.66.1"));
  });

  test("headers dropped (Traefik's default) leave no user agent; a record without a path is refused", () => {
    const e = entryOf(parseLogLine(traefik({ "request_User-Agent": undefined })));
    expect(e.userAgent).toBeNull();
    expect(parseLogLine(traefik({ RequestPath: undefined }), 1, { format: "traefik" })).toEqual({
      ok: false,
      error: { line: 1, reason: "no RequestPath field" },
    });
  });
});

describe("Google Cloud Logging", () => {
  const entry = (http: Record<string, unknown> = {}) =>
    JSON.stringify({
      insertId: "1a2b3c4d",
      jsonPayload: {
        "@type": "type.googleapis.com/google.cloud.loadbalancing.type.LoadBalancerLogEntry",
        statusDetails: "response_sent_by_backend",
      },
      httpRequest: {
        requestMethod: "GET",
        requestUrl: "https://example.com/docs/start?lang=en",
        requestSize: "312",
        status: 200,
        responseSize: "5123",
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
        remoteIp: "23.98.142.180",
        referer: "https://chatgpt.com/",
        latency: "0.012345s",
        protocol: "HTTP/1.1",
        ...http,
      },
      resource: { type: "http_load_balancer", labels: { project_id: "p" } },
      timestamp: "2026-11-29T12:00:00.123456789Z",
      severity: "INFO",
      logName: "projects/p/logs/requests",
      receiveTimestamp: "2026-11-29T12:00:01.2Z",
    });

  test("a load balancer's request: the URL reduced to its path, sizes as strings", () => {
    for (const format of ["auto", "google_cloud"] as const) {
      expect(entryOf(parseLogLine(entry(), 3, { format }))).toEqual({
        line: 3,
        ip: "23.98.142.180",
        timestamp: new Date("2026-11-29T12:00:00.123Z"),
        method: "GET",
        path: "/docs/start?lang=en",
        protocol: "HTTP/1.1",
        status: 200,
        bytes: 5123,
        referrer: "https://chatgpt.com/",
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
      });
    }
  });

  test("Cloud Run's IPv6 client; an entry without a URL is refused", () => {
    expect(entryOf(parseLogLine(entry({ remoteIp: "2001:db8::1" }))).ip).toBe("2001:db8::1");
    expect(parseLogLine(entry({ requestUrl: undefined }), 1)).toEqual({
      ok: false,
      error: { line: 1, reason: "no httpRequest.requestUrl field" },
    });
  });
});

describe("Vercel log drains", () => {
  // The records of Vercel's log drain reference (docs/drains/reference/logs): a build's output (no request) and a
  // function's line with the request it served under `proxy`.
  const build = {
    id: "1573817187330377061717300000",
    deploymentId: "dpl_233NRGRjVZX1caZrXWtz5g1TAksD",
    source: "build",
    host: "my-app-abc123.vercel.app",
    timestamp: 1573817187330,
    projectId: "gdufoJxB6b9b1fEqr1jUtFkyavUU",
    level: "info",
    message: "Build completed successfully",
    buildId: "bld_cotnkcr76",
    type: "stdout",
    projectName: "my-app",
  };
  const lambda = (proxy: Record<string, unknown> = {}, over: Record<string, unknown> = {}) => ({
    id: "1573817250283254651097202070",
    deploymentId: "dpl_233NRGRjVZX1caZrXWtz5g1TAksD",
    source: "lambda",
    host: "my-app-abc123.vercel.app",
    timestamp: 1573817250283,
    projectId: "gdufoJxB6b9b1fEqr1jUtFkyavUU",
    level: "info",
    message: "API request processed",
    entrypoint: "api/index.js",
    requestId: "643af4e3-975a-4cc7-9e7a-1eda11539d90",
    statusCode: 200,
    path: "/api/users",
    executionRegion: "sfo1",
    environment: "production",
    proxy: {
      timestamp: 1573817250172,
      method: "GET",
      host: "my-app.vercel.app",
      path: "/api/users?page=1",
      userAgent: [GOOGLEBOT],
      referer: "https://my-app.vercel.app",
      region: "sfo1",
      statusCode: 200,
      clientIp: "66.249.66.1",
      scheme: "https",
      vercelCache: "MISS",
      ...proxy,
    },
    ...over,
  });

  test("a function's record: the request under proxy, its id, the site it was for", () => {
    for (const format of ["auto", "vercel"] as const) {
      expect(entryOf(parseLogLine(JSON.stringify(lambda()), 2, { format }))).toEqual({
        line: 2,
        ip: "66.249.66.1",
        timestamp: new Date(1573817250172),
        method: "GET",
        path: "/api/users?page=1",
        protocol: null,
        status: 200,
        bytes: null,
        referrer: "https://my-app.vercel.app",
        userAgent: GOOGLEBOT,
        requestId: "643af4e3-975a-4cc7-9e7a-1eda11539d90",
        site: "my-app.vercel.app",
      });
    }
  });

  test("a build's output holds no request: skipped, not refused", () => {
    for (const format of ["auto", "vercel"] as const) {
      const result = parseLogLine(JSON.stringify(build), 1, { format });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.skip).toBe(true);
    }
  });

  test("a JSON array body is read as its records, each once, one a line; other logs as they came", async () => {
    const long = lambda({ message: "x".repeat(400_000) }); // a function's output line over any line limit
    const bytes = new TextEncoder().encode(`\uFEFF \n${JSON.stringify([build, lambda(), long, 7])}`);
    const source = jsonArrayAsRecords(bytes);
    expect(source).toEqual({ records: [build, lambda(), long, 7] });
    const results = [];
    for await (const r of parseLogStream(source, { format: "vercel" })) results.push(r);
    expect(results.map((r) => (r.ok ? r.entry.requestId : r.skip ? "skipped" : r.error.reason))).toEqual([
      "skipped",
      "643af4e3-975a-4cc7-9e7a-1eda11539d90",
      "643af4e3-975a-4cc7-9e7a-1eda11539d90",
      "not a JSON object",
    ]);
    expect(results.map((r) => (r.ok ? r.entry.line : r.error.line))).toEqual([1, 2, 3, 4]);
    // Under a format whose lines are not JSON, a record is read as the line its text would be: refused.
    const asCombined = [];
    for await (const r of parseLogStream(jsonArrayAsRecords(bytes), { format: "combined" }))
      asCombined.push(r);
    expect(asCombined.every((r) => !r.ok && !r.skip)).toBe(true);
    // Any other log is passed on as it came, undecoded.
    const combined = new TextEncoder().encode(
      '66.249.66.1 - - [01/Dec/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"\n',
    );
    expect(jsonArrayAsRecords(combined)).toBe(combined);
    expect(() => jsonArrayAsRecords('[{"proxy": ')).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ reason: "malformed_json" }) }),
    );
  });

  test("-1 for no status (a crashed function, a background revalidation); the cache's request id; sizes", () => {
    const crashed = entryOf(parseLogLine(JSON.stringify(lambda({ statusCode: -1 }, { statusCode: -1 }))));
    expect(crashed.status).toBeNull();
    const revalidating = entryOf(parseLogLine(JSON.stringify(lambda({ statusCode: -1 }))));
    expect(revalidating.status).toBe(200);
    const cached = entryOf(
      parseLogLine(
        JSON.stringify(
          lambda({ vercelId: "sfo1::abc123", responseByteSize: 1024 }, { requestId: undefined }),
        ),
      ),
    );
    expect(cached).toMatchObject({ requestId: "sfo1::abc123", bytes: 1024 });
    const many = entryOf(parseLogLine(JSON.stringify(lambda({ userAgent: ["a/1", "", "b/2"] }))));
    expect(many.userAgent).toBe("a/1, b/2");
    expect(parseLogLine(JSON.stringify(lambda({ path: undefined })), 4, { format: "vercel" })).toEqual({
      ok: false,
      error: { line: 4, reason: "no proxy.path field" },
    });
  });
});

describe("IIS (W3C extended)", () => {
  test("IIS's default fields, with and without the header; a user agent's spaces and plus signs", () => {
    const line =
      "2026-11-29 12:00:00 10.0.0.4 GET /default.aspx q=1 443 - 66.249.66.1 Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html) - 200 0 0 15";
    expect(detectLineFormat(line)).toBe("iis");
    const log = [
      "#Software: Microsoft Internet Information Services 10.0",
      "#Version: 1.0",
      "#Date: 2026-11-29 12:00:00",
      "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken",
      line,
    ].join("\r\n");
    for (const text of [log, line]) {
      const { entries, errors } = parseLog(text);
      expect(errors).toEqual([]);
      expect(entries).toEqual([
        {
          line: text === log ? 5 : 1,
          ip: "66.249.66.1",
          timestamp: new Date("2026-11-29T12:00:00Z"),
          method: "GET",
          path: "/default.aspx?q=1",
          protocol: null,
          status: 200,
          bytes: null,
          referrer: null,
          userAgent: GOOGLEBOT,
        },
      ]);
    }
  });

  test("Azure App Service's fields, named by its header", () => {
    const log = [
      "#Fields: date time s-sitename cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Cookie) cs(Referer) cs-host sc-status sc-substatus sc-win32-status sc-bytes cs-bytes time-taken",
      "2026-11-29 12:00:01 MYSITE GET /pricing - 443 - 20.171.207.2 Mozilla/5.0+AppleWebKit/537.36+(KHTML,+like+Gecko;+compatible;+GPTBot/1.2;++https://openai.com/gptbot) - https://chatgpt.com/ mysite.azurewebsites.net 200 0 0 5123 512 31",
      "2026-11-29 12:00:02 MYSITE GET /short",
    ].join("\n");
    const { entries, errors } = parseLog(log, { format: "iis" });
    expect(entries).toEqual([
      {
        line: 2,
        ip: "20.171.207.2",
        timestamp: new Date("2026-11-29T12:00:01Z"),
        method: "GET",
        path: "/pricing",
        protocol: null,
        status: 200,
        bytes: 5123,
        referrer: "https://chatgpt.com/",
        userAgent:
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      },
    ]);
    expect(errors).toEqual([{ line: 3, reason: 'not a W3C log line: 5 fields where "#Fields:" names 19' }]);
  });

  test("behind a proxy: the forwarded-for field IIS adds, believed by the trusted-proxy rule", () => {
    const log = [
      "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) sc-status X-Forwarded-For",
      "2026-11-29 12:00:00 10.0.0.4 GET /a - 443 - 10.1.0.9 curl/8.0 200 66.249.66.1,+10.1.0.8",
      "2026-11-29 12:00:00 10.0.0.4 GET /b - 443 - 10.1.0.9 curl/8.0 200 -",
    ].join("\n");
    const ips = () => parseLog(log).entries.map((e) => e.ip);
    withTrust(undefined, () => expect(ips()).toEqual(["10.1.0.9", "10.1.0.9"]));
    withTrust("10.1.0.0/16", () => expect(ips()).toEqual(["66.249.66.1", "10.1.0.9"]));
    withTrust("1", () => expect(ips()).toEqual(["10.1.0.8", "10.1.0.9"]));
  });

  test("a header without the date and time: each line refused with that reason", () => {
    const log = ["#Fields: cs-method cs-uri-stem c-ip sc-status", "GET /a 66.249.66.1 200"].join("\n");
    expect(parseLog(log, { format: "iis" }).errors).toEqual([
      { line: 2, reason: 'no "date" and "time" fields' },
    ]);
  });

  test("a CloudFront header still names CloudFront's tab-separated fields", () => {
    const log = [
      "#Version: 1.0",
      "#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query",
      "2019-12-04\t21:02:31\tLAX1\t392\t192.0.2.100\tGET\td1.cloudfront.net\t/a\t404\t-\tcurl/8.0\t-",
    ].join("\n");
    expect(parseLog(log).entries).toMatchObject([
      { line: 3, path: "/a", status: 404, userAgent: "curl/8.0" },
    ]);
  });
});
