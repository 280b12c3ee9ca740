import type { ServerResponse } from "node:http";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { ToolError } from "@/lib/errors";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { FetchError, requireOk, toToolError } from "./errors";
import { createGuardedFetch, DEFAULT_USER_AGENT, guardedFetch, type Resolver } from "./guarded-fetch";

let site: FixtureServer;
let other: FixtureServer;
const seenHeaders: Record<string, Record<string, string | string[] | undefined>> = {};

function redirect(res: ServerResponse, location: string, status = 302) {
  res.writeHead(status, { location });
  res.end();
}

beforeAll(async () => {
  other = await startFixtureServer({
    routes: {
      "/landing": (req, res) => {
        seenHeaders.landing = req.headers;
        res.end("landed");
      },
    },
  });
  site = await startFixtureServer({
    routes: {
      "/ok": (_req, res) => {
        res.end("hello");
      },
      "/echo": (req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(req.headers));
      },
      "/hang": () => {},
      "/stall-body": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("partial");
      },
      "/big": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(Buffer.alloc(2 * 1024 * 1024, "a"));
      },
      "/endless": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = Buffer.alloc(64 * 1024, "x");
        const pump = () => {
          while (res.write(chunk)) {}
          res.once("drain", pump);
        };
        pump();
        res.on("close", () => res.removeAllListeners("drain"));
      },
      "/bomb": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
        res.end(zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024)));
      },
      "/gzip": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip" });
        res.end(zlib.gzipSync("<h1>compressed é</h1>"));
      },
      "/br": (_req, res) => {
        res.writeHead(200, { "content-encoding": "br" });
        res.end(zlib.brotliCompressSync("brotli body"));
      },
      "/deflate": (_req, res) => {
        res.writeHead(200, { "content-encoding": "deflate" });
        res.end(zlib.deflateSync("zlib deflate body"));
      },
      "/raw-deflate": (_req, res) => {
        res.writeHead(200, { "content-encoding": "deflate" });
        res.end(zlib.deflateRawSync("raw deflate body"));
      },
      "/latin1": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" });
        res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      },
      "/meta-charset": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(
          Buffer.concat([
            Buffer.from('<meta charset="windows-1252"><p>'),
            Buffer.from([0x93, 0x68, 0x69, 0x94]),
          ]),
        );
      },
      "/cookies": (_req, res) => {
        res.setHeader("set-cookie", ["a=1", "b=2"]);
        res.end("ok");
      },
      "/to-metadata": (_req, res) => redirect(res, "http://169.254.169.254/latest/meta-data/"),
      "/to-mapped-metadata": (_req, res) => redirect(res, "http://[::ffff:a9fe:a9fe]/"),
      "/to-private": (_req, res) => redirect(res, "http://10.0.0.1/admin"),
      "/to-internal-name": (_req, res) => redirect(res, "http://intranet.test/"),
      "/to-google-metadata": (_req, res) =>
        redirect(res, "http://metadata.google.internal/computeMetadata/v1/"),
      "/to-ftp": (_req, res) => redirect(res, "ftp://example.com/file"),
      "/to-other": (_req, res) => redirect(res, `${other.url}/landing`, 307),
      "/chain": (req, res) => {
        const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("n"));
        if (n > 0) return redirect(res, `/chain?n=${n - 1}`, 301);
        res.end("end of chain");
      },
    },
  });
});

afterAll(async () => {
  await site.close();
  await other.close();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The test fixture lives on 127.0.0.1, so these fetchers allow loopback and nothing else. */
const local = createGuardedFetch({ allowPrivateTargets: "loopback" });
const strict = createGuardedFetch({ allowPrivateTargets: false });

async function expectCode(promise: Promise<unknown>, code: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  expect((err as FetchError).code).toBe(code);
  return err as FetchError;
}

describe("SSRF rules with the production policy", () => {
  const cases: { name: string; url: () => string; code: string }[] = [
    { name: "10.0.0.1", url: () => "http://10.0.0.1/", code: "TARGET_FORBIDDEN" },
    { name: "172.16.0.1", url: () => "http://172.16.0.1/", code: "TARGET_FORBIDDEN" },
    { name: "192.168.1.1", url: () => "http://192.168.1.1/", code: "TARGET_FORBIDDEN" },
    {
      name: "127.0.0.1 (the live fixture)",
      url: () => `http://127.0.0.1:${site.port}/ok`,
      code: "TARGET_FORBIDDEN",
    },
    { name: "127.1", url: () => `http://127.1:${site.port}/ok`, code: "TARGET_FORBIDDEN" },
    { name: "[::1]", url: () => `http://[::1]:${site.port}/ok`, code: "TARGET_FORBIDDEN" },
    { name: "0x7f000001", url: () => `http://0x7f000001:${site.port}/ok`, code: "TARGET_FORBIDDEN" },
    { name: "2130706433", url: () => `http://2130706433:${site.port}/ok`, code: "TARGET_FORBIDDEN" },
    { name: "017700000001", url: () => `http://017700000001:${site.port}/ok`, code: "TARGET_FORBIDDEN" },
    {
      name: "[::ffff:127.0.0.1]",
      url: () => `http://[::ffff:127.0.0.1]:${site.port}/ok`,
      code: "TARGET_FORBIDDEN",
    },
    { name: "0.0.0.0", url: () => `http://0.0.0.0:${site.port}/ok`, code: "TARGET_FORBIDDEN" },
    {
      name: "169.254.169.254",
      url: () => "http://169.254.169.254/latest/meta-data/",
      code: "TARGET_FORBIDDEN",
    },
    { name: "[fd00:ec2::254]", url: () => "http://[fd00:ec2::254]/", code: "TARGET_FORBIDDEN" },
    {
      name: "metadata.google.internal",
      url: () => "http://metadata.google.internal/",
      code: "TARGET_FORBIDDEN",
    },
    { name: "ftp://", url: () => "ftp://example.com/file", code: "INVALID_URL" },
    { name: "file://", url: () => "file:///etc/passwd", code: "INVALID_URL" },
    { name: "credentials in URL", url: () => "http://user:pass@example.com/", code: "INVALID_URL" },
    { name: "not a URL", url: () => "not a url", code: "INVALID_URL" },
  ];
  for (const c of cases) {
    test(`refuses ${c.name}`, async () => {
      const before = site.requests.length;
      await expectCode(strict(c.url()), c.code);
      expect(site.requests.length).toBe(before);
    });
  }

  test("refuses a host name that resolves to 127.0.0.1, before connecting", async () => {
    const resolver = vi.fn<Resolver>(async () => [{ address: "127.0.0.1", family: 4 }]);
    const fetcher = createGuardedFetch({ resolver });
    const before = site.requests.length;
    const err = await expectCode(fetcher(`http://innocent.test:${site.port}/ok`), "TARGET_FORBIDDEN");
    expect(resolver).toHaveBeenCalledWith("innocent.test");
    expect(err.details).toMatchObject({ hostname: "innocent.test", address: "127.0.0.1" });
    expect(site.requests.length).toBe(before);
  });

  test("refuses when any of several answers is private", async () => {
    const resolver: Resolver = async () => [
      { address: "127.0.0.1", family: 4 },
      { address: "10.1.1.1", family: 4 },
    ];
    const fetcher = createGuardedFetch({ allowPrivateTargets: "loopback", resolver });
    await expectCode(fetcher(`http://mixed.test:${site.port}/ok`), "TARGET_FORBIDDEN");
  });
});

describe("redirects are re-checked at every hop", () => {
  const hops = [
    { path: "/to-metadata", code: "TARGET_FORBIDDEN" },
    { path: "/to-mapped-metadata", code: "TARGET_FORBIDDEN" },
    { path: "/to-private", code: "TARGET_FORBIDDEN" },
    { path: "/to-google-metadata", code: "TARGET_FORBIDDEN" },
    { path: "/to-ftp", code: "INVALID_URL" },
  ];
  for (const hop of hops) {
    test(`${hop.path} → ${hop.code} after the allowed first hop`, async () => {
      await expectCode(local(`${site.url}${hop.path}`), hop.code);
      expect(site.requests.at(-1)).toBe(hop.path);
    });
  }

  test("a redirect to a name resolving to a private address is refused", async () => {
    const resolver: Resolver = async (host) => [
      { address: host === "intranet.test" ? "10.0.0.7" : "127.0.0.1", family: 4 },
    ];
    const fetcher = createGuardedFetch({ allowPrivateTargets: "loopback", resolver });
    const err = await expectCode(fetcher(`${site.url}/to-internal-name`), "TARGET_FORBIDDEN");
    expect(err.details).toMatchObject({ hostname: "intranet.test", address: "10.0.0.7" });
  });

  test("metadata stays refused even when private targets are allowed", async () => {
    const lax = createGuardedFetch({ allowPrivateTargets: true });
    await expectCode(lax(`${site.url}/to-metadata`), "TARGET_FORBIDDEN");
  });

  test("five redirects are followed and recorded", async () => {
    const res = await local(`${site.url}/chain?n=5`);
    expect(res.status).toBe(200);
    expect(res.text()).toBe("end of chain");
    expect(res.url).toBe(`${site.url}/chain?n=5`);
    expect(res.finalUrl).toBe(`${site.url}/chain?n=0`);
    expect(res.redirects.map((r) => [r.url, r.status, r.location])).toEqual(
      [5, 4, 3, 2, 1].map((n) => [`${site.url}/chain?n=${n}`, 301, `${site.url}/chain?n=${n - 1}`]),
    );
  });

  test('redirect: "manual" returns the redirect itself, unfollowed, even towards a refused target', async () => {
    const res = await local(`${site.url}/to-private`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.location).toEqual(["http://10.0.0.1/admin"]);
    expect(res.redirects).toEqual([]);
    expect(res.finalUrl).toBe(`${site.url}/to-private`);
  });

  test("six redirects fail with TOO_MANY_REDIRECTS", async () => {
    await expectCode(local(`${site.url}/chain?n=6`), "TOO_MANY_REDIRECTS");
  });

  test("credentials are not forwarded to another origin", async () => {
    const res = await local(`${site.url}/to-other`, {
      headers: { authorization: "Bearer secret", cookie: "s=1", "x-trace": "t1" },
    });
    expect(res.text()).toBe("landed");
    expect(seenHeaders.landing?.authorization).toBeUndefined();
    expect(seenHeaders.landing?.cookie).toBeUndefined();
    expect(seenHeaders.landing?.["x-trace"]).toBe("t1");
  });
});

describe("connection pinning", () => {
  test("connects to the checked address and sends the original Host", async () => {
    const resolver = vi.fn<Resolver>(async () => [{ address: "127.0.0.1", family: 4 }]);
    const fetcher = createGuardedFetch({ allowPrivateTargets: "loopback", resolver });
    const res = await fetcher(`http://site.test:${site.port}/echo`);
    const headers = JSON.parse(res.text()) as Record<string, string>;
    expect(headers.host).toBe(`site.test:${site.port}`);
    expect(resolver).toHaveBeenCalledTimes(1);
  });

  test("a failing resolver is a DNS_ERROR", async () => {
    const fetcher = createGuardedFetch({
      resolver: async () => {
        throw new Error("ENOTFOUND");
      },
    });
    await expectCode(fetcher("http://nowhere.test/"), "DNS_ERROR");
  });
});

describe("timeouts, size and errors", () => {
  test("a server that never answers times out", async () => {
    const started = Date.now();
    await expectCode(local(`${site.url}/hang`, { timeoutMs: 300 }), "FETCH_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("a body that stalls times out", async () => {
    await expectCode(local(`${site.url}/stall-body`, { timeoutMs: 300 }), "FETCH_TIMEOUT");
  });

  test("a closed port is a CONNECT_ERROR", async () => {
    const closed = await startFixtureServer({});
    const port = closed.port;
    await closed.close();
    await expectCode(local(`http://127.0.0.1:${port}/`), "CONNECT_ERROR");
  });

  test("a body over the cap fails", async () => {
    await expectCode(local(`${site.url}/big`, { maxBytes: 1024 * 1024 }), "RESPONSE_TOO_LARGE");
    const res = await local(`${site.url}/big`, { maxBytes: 3 * 1024 * 1024 });
    expect(res.body.length).toBe(2 * 1024 * 1024);
  });

  test("an endless body is cut at the cap", async () => {
    await expectCode(local(`${site.url}/endless`, { maxBytes: 512 * 1024 }), "RESPONSE_TOO_LARGE");
  });

  test("a gzip bomb is cut at the cap on the decoded size", async () => {
    await expectCode(local(`${site.url}/bomb`, { maxBytes: 1024 * 1024 }), "RESPONSE_TOO_LARGE");
  });

  test("the caller's signal cancels the fetch", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await expectCode(local(`${site.url}/hang`, { signal: controller.signal }), "FETCH_FAILED");
    expect(err.details).toMatchObject({ cancelled: true });
  });
});

describe("bodies and headers", () => {
  test.each([
    ["/gzip", "<h1>compressed é</h1>"],
    ["/br", "brotli body"],
    ["/deflate", "zlib deflate body"],
    ["/raw-deflate", "raw deflate body"],
  ])("decodes %s", async (path, expected) => {
    const res = await local(`${site.url}${path}`);
    expect(res.text()).toBe(expected);
  });

  test("honours the charset of the Content-Type and of a meta tag", async () => {
    expect((await local(`${site.url}/latin1`)).text()).toBe("café");
    expect((await local(`${site.url}/meta-charset`)).text()).toContain("\u201chi\u201d");
  });

  test("keeps repeated headers", async () => {
    const res = await local(`${site.url}/cookies`);
    expect(res.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
  });

  test("HEAD returns headers and no body", async () => {
    const res = await local(`${site.url}/ok`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });

  test("sends the bot user agent and accepts compression", async () => {
    const headers = JSON.parse((await local(`${site.url}/echo`)).text()) as Record<string, string>;
    expect(headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
    expect(headers["accept-encoding"]).toBe("gzip, deflate, br");
  });
});

describe("the default guardedFetch", () => {
  test("reads ALLOW_PRIVATE_TARGETS and FETCH_USER_AGENT at call time", async () => {
    vi.stubEnv("ALLOW_PRIVATE_TARGETS", "");
    await expectCode(guardedFetch(`${site.url}/ok`), "TARGET_FORBIDDEN");
    vi.stubEnv("ALLOW_PRIVATE_TARGETS", "true");
    vi.stubEnv("FETCH_USER_AGENT", "CustomBot/2.0");
    const headers = JSON.parse((await guardedFetch(`${site.url}/echo`)).text()) as Record<string, string>;
    expect(headers["user-agent"]).toBe("CustomBot/2.0");
  });
});

describe("toToolError and requireOk", () => {
  test("keeps the fetch code and message", () => {
    const err = toToolError(new FetchError("FETCH_TIMEOUT", "slow"));
    expect(err).toBeInstanceOf(ToolError);
    expect([err.code, err.message]).toEqual(["FETCH_TIMEOUT", "slow"]);
    expect(toToolError(new Error("boom")).code).toBe("FETCH_FAILED");
  });

  test("requireOk turns a non-2xx page into HTTP_ERROR", async () => {
    const res = await local(`${site.url}/missing`);
    expect(res.status).toBe(404);
    expect(() => requireOk(res)).toThrow(expect.objectContaining({ code: "HTTP_ERROR" }));
    expect(requireOk(await local(`${site.url}/ok`)).status).toBe(200);
  });
});
