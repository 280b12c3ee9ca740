import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGuardedFetch } from "@/lib/fetch";
import { parseRangeFeed } from "./feed";
import { refreshRangeFiles } from "./refresh";
import type { RangeSource } from "./sources";

// A local stand-in for the operators' servers, answering in their real format.
const ROUTES: Record<string, { status: number; body: string }> = {
  "/gptbot.json": {
    status: 200,
    body: JSON.stringify({
      creationTime: "2025-10-30T11:00:00Z",
      prefixes: [
        { ipv4Prefix: "52.230.152.0/24" },
        { ipv4Prefix: "20.171.206.0/24" },
        { ipv6Prefix: "2603:1030::/48" },
      ],
    }),
  },
  "/bingbot.json": { status: 200, body: JSON.stringify({ creationTime: "2024-01-03", prefixes: [] }) },
  "/broken.json": { status: 200, body: "<html>not json</html>" },
  // Amazon's shape: a web page with the JSON document inside it.
  "/amazonbot/ip-addresses/": {
    status: 200,
    body: `<!doctype html><html><head><script>var x = {"a": "}"};</script></head><body><pre>{
  "creationTime": "2026-11-01T00:00:00.000000",
  "prefixes": [
    { "ip_prefix": "3.224.220.101/32" },
    { "ipv4Prefix": "52.70.240.171/32" }
  ]
}</pre><p>{"not": "this"}</p></body></html>`,
  },
  "/amazonbot/empty/": { status: 200, body: "<html><body>No list today.</body></html>" },
  "/missing.json": { status: 404, body: "not found" },
};

let server: Server;
let base: string;
let dataDir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const route = ROUTES[req.url ?? ""] ?? { status: 404, body: "" };
    res.writeHead(route.status, { "content-type": "application/json" });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dataDir = await mkdtemp(path.join(tmpdir(), "bot-ranges-"));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

const fetch = createGuardedFetch({ allowPrivateTargets: "loopback" });

function source(key: RangeSource["key"], route: string): RangeSource {
  return { key, operator: "test", url: `${base}${route}`, covers: "test" };
}

describe("refreshRangeFiles", () => {
  test("writes each feed in the operators' format and keeps old files when a source fails", async () => {
    const previous = `${JSON.stringify({ creationTime: "old", prefixes: [{ ipv4Prefix: "157.55.39.0/24" }] })}\n`;
    for (const key of ["bing-bingbot", "perplexity-user", "apple-applebot"]) {
      await writeFile(path.join(dataDir, `${key}.json`), previous);
    }

    const outcomes = await refreshRangeFiles({
      dataDir,
      fetch,
      now: () => new Date("2026-11-22T00:00:00Z"),
      sources: [
        source("openai-gptbot", "/gptbot.json"),
        source("bing-bingbot", "/bingbot.json"),
        source("perplexity-user", "/broken.json"),
        source("apple-applebot", "/missing.json"),
      ],
    });

    expect(outcomes).toEqual([
      { key: "openai-gptbot", ok: true, prefixes: 3, rejected: [], creationTime: "2025-10-30T11:00:00Z" },
      { key: "bing-bingbot", ok: false, error: "feed holds no usable prefix" },
      { key: "perplexity-user", ok: false, error: "response is not JSON" },
      { key: "apple-applebot", ok: false, error: "HTTP 404" },
    ]);

    const written = JSON.parse(await readFile(path.join(dataDir, "openai-gptbot.json"), "utf8"));
    expect(written).toEqual({
      creationTime: "2025-10-30T11:00:00Z",
      source: `${base}/gptbot.json`,
      fetchedAt: "2026-11-22T00:00:00.000Z",
      prefixes: [
        { ipv4Prefix: "20.171.206.0/24" },
        { ipv4Prefix: "52.230.152.0/24" },
        { ipv6Prefix: "2603:1030::/48" },
      ],
    });
    expect(parseRangeFeed(written).prefixes).toHaveLength(3);
    for (const key of ["bing-bingbot", "perplexity-user", "apple-applebot"]) {
      expect(await readFile(path.join(dataDir, `${key}.json`), "utf8")).toBe(previous);
    }
  });

  test("extracts the JSON document Amazon embeds in its pages", async () => {
    const html = (key: RangeSource["key"], route: string): RangeSource => ({
      ...source(key, route),
      embedded: "html",
    });
    const outcomes = await refreshRangeFiles({
      dataDir,
      fetch,
      now: () => new Date("2026-11-22T00:00:00Z"),
      sources: [
        html("amazon-amazonbot", "/amazonbot/ip-addresses/"),
        html("amazon-user", "/amazonbot/empty/"),
      ],
    });
    expect(outcomes).toEqual([
      {
        key: "amazon-amazonbot",
        ok: true,
        prefixes: 2,
        rejected: [],
        creationTime: "2026-11-01T00:00:00.000000",
      },
      { key: "amazon-user", ok: false, error: "page holds no JSON range document" },
    ]);
    const written = JSON.parse(await readFile(path.join(dataDir, "amazon-amazonbot.json"), "utf8"));
    expect(parseRangeFeed(written).prefixes).toHaveLength(2);
  });

  test("gives up on a response larger than the cap", async () => {
    const [outcome] = await refreshRangeFiles({
      dataDir,
      fetch,
      maxBytes: 50,
      sources: [source("openai-gptbot", "/gptbot.json")],
    });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/cap/) });
  });
});
