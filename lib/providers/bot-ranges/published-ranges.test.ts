import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGuardedFetch } from "@/lib/fetch";
import {
  fetchPublishedRanges,
  PublishedRangesError,
  publishedRangesUrl,
  readBotRangesConfig,
} from "./published-ranges";

describe("readBotRangesConfig", () => {
  test("unset: the operators' own addresses; set: an http(s) origin, path dropped", () => {
    expect(readBotRangesConfig({})).toEqual({ baseUrl: null });
    expect(readBotRangesConfig({ BOT_RANGES_BASE_URL: " " })).toEqual({ baseUrl: null });
    expect(readBotRangesConfig({ BOT_RANGES_BASE_URL: "http://127.0.0.1:4010/mirror" })).toEqual({
      baseUrl: "http://127.0.0.1:4010",
    });
    expect(() => readBotRangesConfig({ BOT_RANGES_BASE_URL: "not a url" })).toThrow(/not a URL/);
    expect(() => readBotRangesConfig({ BOT_RANGES_BASE_URL: "ftp://mirror.example" })).toThrow(/http/);
  });

  test("a configured origin stands in for every operator's, the path kept", () => {
    const config = { baseUrl: "http://127.0.0.1:4010" };
    expect(publishedRangesUrl("https://openai.com/gptbot.json", config)).toBe(
      "http://127.0.0.1:4010/gptbot.json",
    );
    expect(publishedRangesUrl("https://developer.amazon.com/amazonbot/ip-addresses/", config)).toBe(
      "http://127.0.0.1:4010/amazonbot/ip-addresses/",
    );
    expect(publishedRangesUrl("https://openai.com/gptbot.json", { baseUrl: null })).toBe(
      "https://openai.com/gptbot.json",
    );
  });
});

describe("fetchPublishedRanges", () => {
  let server: http.Server;
  let base: string;
  const fetch = createGuardedFetch({ allowPrivateTargets: "loopback" });
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/list.json") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"creationTime":"2026-11-01T00:00:00","prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}');
      } else if (req.url === "/moved.json") {
        res.writeHead(301, { location: "/list.json" }).end();
      } else if (req.url === "/page/") {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(
          '<p>{"x": "}"}</p><pre>{ "creationTime": "y", "prefixes": [{"ip_prefix": "3.224.220.101"}] }</pre>',
        );
      } else if (req.url === "/html.json") {
        res.writeHead(200, { "content-type": "text/html" }).end("<html>sign in</html>");
      } else res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("a list as its operator wrote it, after a redirect too", async () => {
    const expected = { creationTime: "2026-11-01T00:00:00", prefixes: [{ ipv4Prefix: "20.171.206.0/24" }] };
    expect(await fetchPublishedRanges(`${base}/list.json`, { fetch })).toEqual(expected);
    expect(await fetchPublishedRanges(`${base}/moved.json`, { fetch })).toEqual(expected);
  });

  test("the document a web page holds", async () => {
    expect(await fetchPublishedRanges(`${base}/page/`, { fetch, embedded: "html" })).toEqual({
      creationTime: "y",
      prefixes: [{ ip_prefix: "3.224.220.101" }],
    });
  });

  test("an error status, a body that is no list, one over the cap: each a reason", async () => {
    const reason = (url: string, options = {}) =>
      fetchPublishedRanges(url, { fetch, ...options }).then(
        () => null,
        (err: unknown) => (err instanceof PublishedRangesError ? err.message : `other: ${err}`),
      );
    expect(await reason(`${base}/gone.json`)).toBe("HTTP 500");
    expect(await reason(`${base}/html.json`)).toBe("response is not JSON");
    expect(await reason(`${base}/html.json`, { embedded: "html" })).toBe("page holds no JSON range document");
    expect(await reason(`${base}/list.json`, { maxBytes: 20 })).toBe("response exceeds the 20-byte cap");
  });
});
