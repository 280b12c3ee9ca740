import { once } from "node:events";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import express from "express";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, vi } from "vitest";
import { trackingSnippets } from "@/lib/dashboard/snippets";
import { classifyUserAgent } from "@/lib/tracking/catalog/classify";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { apiTest } from "@/test/support/fixtures";
import type { TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { UA } from "./helpers";

// The integration snippets of docs/tracking.md, as the dashboard ships them, run against the service: the Next.js
// proxy as a module of a project, the Express middleware in an Express app, the Worker as an ES module.
const test = apiTest.withAccount({ domains: ["example.com"] });
let api: TestApi;
let acct: TestAccount;

test.beforeAll(async ({ api: _api, acct: _acct }) => {
  api = _api;
  acct = _acct;
});
// Where the Next.js and Express snippets read the key pair, as a site's deployment sets it.
beforeEach(() => {
  vi.stubEnv("FINDABLE_KEY", acct.key);
  vi.stubEnv("FINDABLE_SECRET", acct.secret);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** What every snippet does with its buffer: one JSON POST with the key pair. */
async function sendEvents(events: object[]) {
  const res = await fetch(`${api.url}/api/v1/tracking/events`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": acct.key, "x-api-secret": acct.secret },
    body: JSON.stringify({ events }),
  });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
}

/** A snippet of the dashboard, as shipped, sending to this test's service. */
function snippetCode(title: string): string {
  return trackingSnippets(api.url, "example.com").find((s) => s.title === title)!.code;
}

/**
 * Records what a snippet POSTs to the service (which answers for real) and the service's answers; any other
 * fetch is the site's origin, answered by `origin`. With `loseFirstAnswer`, the first POST reaches the service
 * and the snippet is told the connection failed; with `refuse`, the POSTs it names (0 the first) are answered
 * with its response instead (a rate limit, a failing server) or fail with its error (no connection), and never
 * reach the service.
 */
function captureServicePosts(
  options: {
    loseFirstAnswer?: boolean;
    origin?: (url: URL) => Response;
    refuse?: (n: number) => Response | Error | undefined;
  } = {},
) {
  const realFetch = globalThis.fetch;
  const batches: { events: Record<string, unknown>[] }[] = [];
  const answers: Promise<Record<string, unknown>>[] = [];
  const state = { batches, answers, lost: 0, refused: 0, restore: () => stub.mockRestore() };
  const stub = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(api.url)) return options.origin?.(new URL(url)) ?? new Response("ok");
    batches.push(JSON.parse(String(init?.body)));
    const refused = options.refuse?.(batches.length - 1);
    if (refused) {
      state.refused++;
      if (refused instanceof Error) throw refused;
      return refused;
    }
    const res = await realFetch(input, init);
    const answer = res
      .clone()
      .json()
      .then((b) => (b as { data: Record<string, unknown> }).data);
    answers.push(answer);
    if (options.loseFirstAnswer && answers.length === 1) {
      await answer;
      state.lost++;
      throw new TypeError("fetch failed");
    }
    return res;
  });
  return state;
}

let loaded = 0;
/** Imports a snippet's code as a module of its own (a fresh buffer each time); `dir` is where it resolves from. */
async function importSnippet<T>(title: string, dir: string, ext: string): Promise<T> {
  const file = path.join(dir, `.snippet-${process.pid}-${++loaded}.${ext}`);
  writeFileSync(file, snippetCode(title));
  try {
    return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as T;
  } finally {
    rmSync(file, { force: true });
  }
}

type ProxyEvent = { waitUntil(p: Promise<unknown>): void };
/** The Next.js snippet, from the project's tree so it resolves next/server as a site's proxy.ts does. */
const importProxy = () =>
  importSnippet<{ proxy(req: NextRequest, event: ProxyEvent): Response; config: { matcher: string[] } }>(
    "Next.js (proxy.ts)",
    import.meta.dirname,
    "ts",
  );
/** The Cloudflare Worker snippet, a plain ES module. */
const importWorker = () =>
  importSnippet<{
    default: { fetch(request: Request, env: object, ctx: ProxyEvent): Promise<Response> };
  }>("Cloudflare Worker", tmpdir(), "mjs");

/** The Worker as shipped, with this test's key pair: `visit` is a request to the site, `sent` the POSTs it queued. */
async function startWorker() {
  const { default: worker } = await importWorker();
  const posted = captureServicePosts();
  const env = { FINDABLE_KEY: acct.key, FINDABLE_SECRET: acct.secret };
  const sent: Promise<unknown>[] = [];
  const visit = (url: string, headers: Record<string, string>) =>
    worker.fetch(new Request(url, { headers }), env, { waitUntil: (p) => sent.push(p) });
  return { visit, sent, posted };
}

/**
 * An Express site behind one proxy (`trust proxy` 1) with the Express snippet pasted next to its app, as shipped.
 * `flush` runs the snippet's 10-second timer.
 */
async function expressSite() {
  const timers: (() => void)[] = [];
  const install = new Function("app", "setInterval", `${snippetCode("Express")}\nreturn flush;`) as (
    app: express.Express,
    setInterval: (fn: () => void, ms: number) => { unref(): void },
  ) => () => void;
  const app = express();
  app.set("trust proxy", 1);
  install(app, (fn) => {
    timers.push(fn);
    return { unref() {} };
  });
  app.get("/docs", (req, res) => {
    res.status(req.query.page ? 404 : 200).send("docs");
  });
  // Both stacks, as a site listens: a client reaching it over IPv4 has an IPv4-mapped IPv6 address.
  const server = app.listen(0, "::");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    get: (pathname: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get({ host: "127.0.0.1", port, path: pathname, headers }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.on("error", reject);
      }),
    flush: async () => {
      // A response's "finish" runs once it is handed over: let it run before the timer.
      await new Promise((resolve) => setImmediate(resolve));
      expect(timers).toHaveLength(1);
      timers[0]!();
    },
    close: () => server.close(),
  };
}

describe("integration snippets", () => {
  test("Next.js proxy, as shipped: NextRequest fields, the proxy's address, one batch of 500", async () => {
    const posted = captureServicePosts();
    try {
      const { proxy, config } = await importProxy();
      expect(config.matcher).toEqual(["/((?!_next/static|_next/image|favicon.ico).*)"]);
      const sent: Promise<unknown>[] = [];
      const visit = (url: string, headers: Record<string, string>) => {
        const res = proxy(new NextRequest(url, { headers }), { waitUntil: (p) => sent.push(p) });
        // NextResponse.next(): the request goes on to the page.
        expect(res.headers.get("x-middleware-next")).toBe("1");
      };
      visit("https://www.example.com/pricing?plan=pro", {
        "user-agent": UA.gptbot,
        // A client that writes a forwarded-for header of its own, and the address the proxy appended.
        "x-forwarded-for": "66.249.66.1, 20.171.207.10",
      });
      visit("https://example.com/blog/aeo", { "user-agent": UA.chrome, referer: "https://chatgpt.com/" });
      for (let i = 0; i < 497; i++) visit(`https://example.com/page/${i}`, { "user-agent": UA.chrome });
      expect(sent).toHaveLength(0);
      visit("https://example.com/", { "user-agent": UA.chrome });
      expect(sent).toHaveLength(1);
      await Promise.all(sent);
      expect(posted.batches[0]!.events).toHaveLength(500);
      expect(posted.batches[0]!.events[0]).toMatchObject({
        domain: "www.example.com",
        path: "/pricing?plan=pro",
        ip: "20.171.207.10",
        method: "GET",
      });
      expect(await posted.answers[0]).toMatchObject({
        received: 500,
        accepted: 2,
        skipped: 498,
        rejected: [],
      });
    } finally {
      posted.restore();
    }
  });

  test("Express, as shipped: req.ip behind one trusted proxy, the finished response's status, a lost answer sent again", async () => {
    const site = await expressSite();
    const posted = captureServicePosts({ loseFirstAnswer: true });
    try {
      expect(
        await site.get("/docs?page=2", {
          host: "example.com",
          "user-agent": UA.googlebot,
          "x-request-id": "6f1b2c3d-express",
          "x-forwarded-for": "198.51.100.7, 66.249.66.1",
        }),
      ).toBe(404);
      expect(
        await site.get("/docs", {
          host: "example.com",
          "user-agent": UA.perplexityUser,
          "x-forwarded-for": "2001:db8::1",
        }),
      ).toBe(200);
      // A person reaching the site directly (no proxy header): req.ip is the socket's IPv4-mapped address.
      expect(await site.get("/docs", { host: "example.com", "user-agent": UA.chrome })).toBe(200);
      await site.flush();
      await vi.waitFor(() => expect(posted.lost).toBe(1));
      // The service stored the batch but its answer was lost: the snippet keeps the events and sends them again.
      expect(await posted.answers[0]).toMatchObject({ received: 3, accepted: 2, skipped: 1, rejected: [] });
      expect(posted.batches[0]!.events).toEqual([
        expect.objectContaining({
          id: "6f1b2c3d-express",
          domain: "example.com",
          path: "/docs?page=2",
          ip: "66.249.66.1",
          status: 404,
          host: "example.com",
          method: "GET",
        }),
        expect.objectContaining({ path: "/docs", ip: "2001:db8::1", status: 200 }),
        expect.objectContaining({ path: "/docs", ip: "::ffff:127.0.0.1", status: 200 }),
      ]);
      await site.flush();
      await vi.waitFor(() => expect(posted.answers).toHaveLength(2));
      expect(await posted.answers[1]).toMatchObject({ received: 3, accepted: 0, duplicates: 2 });
    } finally {
      posted.restore();
      site.close();
    }
  });

  test("Cloudflare Worker, as shipped: cf-connecting-ip, the origin's status, bots and AI referrals sent after 10 s", async () => {
    const { default: worker } = await importWorker();
    const status: Record<string, number> = { "/c": 301 };
    const posted = captureServicePosts({
      origin: (url) => new Response("page", { status: status[url.pathname] ?? 200 }),
    });
    const sent: Promise<unknown>[] = [];
    const env = { FINDABLE_KEY: acct.key, FINDABLE_SECRET: acct.secret };
    const visit = async (url: string, headers: Record<string, string>) =>
      (await worker.fetch(new Request(url, { headers }), env, { waitUntil: (p) => sent.push(p) })).status;
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      expect(
        await visit("https://example.com/a", {
          "user-agent": UA.chatgptUser,
          "cf-connecting-ip": "2a01:4f8::2",
        }),
      ).toBe(200);
      await visit("https://example.com/b", {
        "user-agent": UA.chrome,
        referer: "https://www.perplexity.ai/search/x",
        "cf-connecting-ip": "203.0.113.5",
      });
      expect(
        await visit("https://example.com/c?utm_source=chatgpt.com", {
          "user-agent": UA.chrome,
          "cf-connecting-ip": "203.0.113.6",
        }),
      ).toBe(301);
      await visit("https://example.com/d", { "user-agent": UA.chrome, "cf-connecting-ip": "203.0.113.7" });
      expect(sent).toHaveLength(0);
      // The next request after ten seconds sends what the buffer holds, whoever makes it.
      vi.setSystemTime(Date.now() + 10_001);
      await visit("https://example.com/e", { "user-agent": UA.chrome });
      expect(sent).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
    try {
      await Promise.all(sent);
      expect(posted.batches[0]!.events).toEqual([
        expect.objectContaining({ path: "/a", ip: "2a01:4f8::2", status: 200 }),
        expect.objectContaining({ path: "/b", referrer: "https://www.perplexity.ai/search/x" }),
        expect.objectContaining({ path: "/c?utm_source=chatgpt.com", status: 301 }),
      ]);
      expect(await posted.answers[0]).toMatchObject({ received: 3, accepted: 3, skipped: 0, rejected: [] });
    } finally {
      posted.restore();
    }
  });

  test("nginx: a gzipped combined log with Content-Encoding: gzip", async () => {
    const d = new Date();
    const mon = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
      d.getUTCMonth()
    ];
    const p = (n: number) => String(n).padStart(2, "0");
    const time = `${p(d.getUTCDate())}/${mon}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
    const log = [
      `66.249.66.1 - - [${time}] "GET /robots.txt HTTP/1.1" 200 67 "-" "${UA.googlebot}"`,
      `20.171.207.10 - - [${time}] "GET /llms.txt HTTP/2.0" 200 1024 "-" "${UA.gptbot}"`,
      `198.51.100.4 - - [${time}] "GET /blog/aeo HTTP/2.0" 200 5120 "https://chatgpt.com/" "${UA.chrome}"`,
    ].join("\n");
    const res = await fetch(`${api.url}/api/v1/tracking/logs?domain=example.com`, {
      method: "POST",
      headers: { ...acct.headers, "content-type": "text/plain", "content-encoding": "gzip" },
      body: gzipSync(`${log}\n`),
    });
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ lines: 3, accepted: 3, rejectedCount: 0 });
  });

  test("all of it shows in stats and citations", async () => {
    trackingReadCache.clear();
    const get = async (path: string) =>
      (
        (await (await fetch(`${api.url}${path}`, { headers: acct.headers })).json()) as {
          data: Record<string, unknown>;
        }
      ).data;
    const stats = await get("/api/v1/tracking/stats?domain=example.com");
    // Bots: GPTBot (proxy), Googlebot + Perplexity-User (Express), ChatGPT-User (Worker), Googlebot + GPTBot (nginx).
    expect(stats).toMatchObject({ totalVisits: 6, uniqueBots: 4, aiBotVisits: 4 });
    const citations = await get("/api/v1/citations?domain=example.com");
    // ChatGPT referral (proxy), Perplexity-User (Express), ChatGPT-User, Perplexity referral, utm (Worker), ChatGPT referral (nginx).
    expect(citations).toMatchObject({ total: 6 });
    expect(citations.byBot).toEqual([
      { bot: "ChatGPT", count: 4 },
      { bot: "Perplexity", count: 2 },
    ]);
  });
});

// After the figures above are checked: these visits would change them.
describe("when the service refuses a batch for now", () => {
  test("a batch refused for now (429, 5xx, no connection) is kept and sent again once the pause is over", async () => {
    const rateLimited = () =>
      new Response(JSON.stringify({ error: { code: "RATE_LIMITED" } }), {
        status: 429,
        headers: { "retry-after": "30" },
      });
    vi.useFakeTimers({ toFake: ["Date"] });
    // Next.js: 500 visits make a batch; the rate limit's answer pauses sending for its Retry-After.
    const next = captureServicePosts({ refuse: (n) => (n === 0 ? rateLimited() : undefined) });
    try {
      const { proxy } = await importProxy();
      const sent: Promise<unknown>[] = [];
      const visit = (p: string, ua: string) =>
        proxy(new NextRequest(`https://example.com${p}`, { headers: { "user-agent": ua } }), {
          waitUntil: (x) => sent.push(x),
        });
      visit("/kept", UA.gptbot);
      for (let i = 0; i < 499; i++) visit(`/p/${i}`, UA.chrome);
      expect(sent).toHaveLength(1);
      await Promise.all(sent);
      expect(next.refused).toBe(1);
      // Within the pause nothing is sent, however full the buffer.
      for (let i = 0; i < 600; i++) visit(`/q/${i}`, UA.chrome);
      visit("/later", UA.perplexityUser);
      expect(sent).toHaveLength(1);
      vi.setSystemTime(Date.now() + 30_001);
      visit("/after", UA.chrome);
      expect(sent).toHaveLength(2);
      await Promise.all(sent);
      // The kept batch goes first, then the newer visits, 1,000 to a request.
      expect(next.batches[1]!.events).toHaveLength(1000);
      expect(next.batches[1]!.events[0]).toMatchObject({ path: "/kept" });
      expect(await next.answers[0]).toMatchObject({ received: 1000, accepted: 1, skipped: 999 });
      visit("/then", UA.chrome);
      await Promise.all(sent);
      expect(next.batches[2]!.events.map((e) => e.path)).toContain("/later");
      expect(await next.answers[1]).toMatchObject({ accepted: 1 });
    } finally {
      next.restore();
      vi.useRealTimers();
    }

    // Express: a server error keeps the batch for the next flush; a rate limit for its Retry-After too.
    const site = await expressSite();
    const express = captureServicePosts({
      refuse: (n) => (n === 0 ? new Response("busy", { status: 503 }) : n === 1 ? rateLimited() : undefined),
    });
    try {
      await site.get("/docs", {
        host: "example.com",
        "user-agent": UA.googlebot,
        "x-request-id": "express-kept",
      });
      await site.flush();
      await vi.waitFor(() => expect(express.refused).toBe(1));
      await site.flush();
      await vi.waitFor(() => expect(express.refused).toBe(2));
      expect(express.batches.map((b) => b.events.map((e) => e.id))).toEqual([
        ["express-kept"],
        ["express-kept"],
      ]);
      await site.flush(); // within the 30 seconds: nothing sent
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(express.batches).toHaveLength(2);
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 30_001);
      await site.flush();
      vi.useRealTimers();
      await vi.waitFor(() => expect(express.answers).toHaveLength(1));
      expect(express.batches[2]!.events.map((e) => e.id)).toEqual(["express-kept"]);
      expect(await express.answers[0]).toMatchObject({ received: 1, accepted: 1 });
    } finally {
      vi.useRealTimers();
      express.restore();
      site.close();
    }

    // The Worker: an answer that never comes (no connection) pauses it 10 seconds.
    const { visit, sent, posted } = await startWorker();
    posted.restore();
    const worker = captureServicePosts({
      refuse: (n) => (n === 0 ? new TypeError("fetch failed") : undefined),
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      for (let i = 0; i < 50; i++) {
        await visit(`https://example.com/w/${i}`, {
          "user-agent": UA.gptbot,
          "cf-connecting-ip": "203.0.113.9",
        });
      }
      expect(sent).toHaveLength(1);
      await Promise.allSettled(sent);
      await visit("https://example.com/w/50", { "user-agent": UA.gptbot });
      expect(sent).toHaveLength(1);
      vi.setSystemTime(Date.now() + 10_001);
      await visit("https://example.com/w/51", { "user-agent": UA.gptbot });
      expect(sent).toHaveLength(2);
      await Promise.all(sent.slice(1));
      expect(worker.batches[1]!.events.map((e) => e.path)).toEqual(
        Array.from({ length: 52 }, (_, i) => `/w/${i}`),
      );
      expect(await worker.answers[0]).toMatchObject({ received: 52, accepted: 52 });
    } finally {
      vi.useRealTimers();
      worker.restore();
    }
  });
});

describe("a buffer full while the service cannot be reached", () => {
  test("keeps the oldest 5,000 visits and sends them once it can", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const posted = captureServicePosts({
      refuse: (n) =>
        n === 0 ? new Response("", { status: 429, headers: { "retry-after": "60" } }) : undefined,
    });
    try {
      const { proxy } = await importProxy();
      const sent: Promise<unknown>[] = [];
      const visit = (p: string) =>
        proxy(new NextRequest(`https://example.com${p}`, { headers: { "user-agent": UA.chrome } }), {
          waitUntil: (x) => sent.push(x),
        });
      for (let i = 0; i < 500; i++) visit(`/first/${i}`);
      await Promise.all(sent);
      expect(posted.refused).toBe(1);
      for (let i = 0; i < 6000; i++) visit(`/paused/${i}`);
      expect(sent).toHaveLength(1);
      vi.setSystemTime(Date.now() + 60_001);
      for (let i = 0; i < 5; i++) visit(`/after/${i}`);
      await Promise.all(sent);
      const resent = posted.batches.slice(1).flatMap((b) => b.events.map((e) => e.path as string));
      expect(resent).toHaveLength(5000);
      expect(resent[0]).toBe("/first/0");
      expect(resent.at(-1)).toBe("/paused/4499");
      // The visits past the 5,000th were dropped, the first after the pause too (the buffer was still full).
      vi.setSystemTime(Date.now() + 10_001);
      visit("/last");
      await Promise.all(sent);
      expect(posted.batches.at(-1)!.events.map((e) => e.path)).toEqual([
        "/after/1",
        "/after/2",
        "/after/3",
        "/after/4",
        "/last",
      ]);
      expect(await Promise.all(posted.answers)).toHaveLength(6);
    } finally {
      posted.restore();
      vi.useRealTimers();
    }
  });
});

describe("signed agents in the snippets", () => {
  const signedHeaders = {
    "user-agent": UA.gptbot,
    host: "example.com",
    signature: "sig1=:AAAA:",
    "signature-input": 'sig1=("@authority");created=1;expires=2;keyid="k";tag="web-bot-auth"',
    "signature-agent": 'sig1="https://agent.example"',
  };
  const signedFields = {
    method: "GET",
    host: "example.com",
    signature: "sig1=:AAAA:",
    signatureInput: 'sig1=("@authority");created=1;expires=2;keyid="k";tag="web-bot-auth"',
    signatureAgent: 'sig1="https://agent.example"',
  };
  /** The signature fields an event carries (none for an unsigned request). */
  const signatureFields = (event: Record<string, unknown> | undefined) =>
    ["signature", "signatureInput", "signatureAgent"].filter((k) => event && k in event);
  /** One batch: the signed request with its headers and what they sign, then the unsigned one with none. */
  async function expectSignedThenPlain(posted: ReturnType<typeof captureServicePosts>) {
    const [signed, plain] = posted.batches[0]!.events;
    expect(signed).toMatchObject({ path: "/docs", ...signedFields });
    expect(signatureFields(plain)).toEqual([]);
    expect(await posted.answers[0]).toMatchObject({ received: 2, accepted: 2, rejected: [] });
  }

  test("Next.js, as shipped, forwards a signed agent's headers; an unsigned request sends none", async () => {
    const posted = captureServicePosts();
    try {
      const { proxy } = await importProxy();
      const sent: Promise<unknown>[] = [];
      const visit = (url: string, headers: Record<string, string>) =>
        proxy(new NextRequest(url, { headers }), { waitUntil: (p) => sent.push(p) });
      vi.useFakeTimers({ toFake: ["Date"] });
      try {
        visit("https://example.com/docs", signedHeaders);
        vi.setSystemTime(Date.now() + 10_001);
        visit("https://example.com/", { "user-agent": UA.gptbot });
      } finally {
        vi.useRealTimers();
      }
      await Promise.all(sent);
      await expectSignedThenPlain(posted);
    } finally {
      posted.restore();
    }
  });

  test("Express, as shipped, forwards a signed agent's headers; an unsigned request sends none", async () => {
    const site = await expressSite();
    const posted = captureServicePosts();
    try {
      await site.get("/docs", signedHeaders);
      // Another page: two events alike to the millisecond are one event (ingest is idempotent).
      await site.get("/", { host: "example.com", "user-agent": UA.gptbot });
      await site.flush();
      await vi.waitFor(() => expect(posted.answers).toHaveLength(1));
      await expectSignedThenPlain(posted);
    } finally {
      posted.restore();
      site.close();
    }
  });

  test("a host that is no Host header is refused for that event alone", async () => {
    const event = {
      domain: "example.com",
      path: "/",
      userAgent: UA.gptbot,
      timestamp: new Date().toISOString(),
      ...signedFields,
    };
    const { body } = await sendEvents([{ ...event, host: "not a host" }, event]);
    expect(body.data).toMatchObject({
      accepted: 1,
      rejected: [{ index: 0, errors: [{ field: "host" }] }],
    });
  });

  test("Cloudflare Worker, as shipped: signed agents, every AI agent and AI referrals sent with their headers; people not", async () => {
    const { visit, sent, posted } = await startWorker();
    try {
      // A signed agent with a browser's user agent, as agents that browse for a user sign.
      await visit("https://example.com/signed", {
        "user-agent": UA.chrome,
        signature: "sig1=:AAAA:",
        "signature-input":
          'sig1=("@authority" "signature-agent");created=1;expires=2;keyid="k";tag="web-bot-auth"',
        "signature-agent": '"https://chatgpt.com"',
      });
      await visit("https://example.com/mistral", {
        "user-agent":
          "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)",
      });
      await visit("https://example.com/from-le-chat", {
        "user-agent": UA.chrome,
        referer: "https://chat.mistral.ai/chat/1",
      });
      await visit("https://example.com/from-search", {
        "user-agent": UA.chrome,
        referer: "https://www.bing.com/search?q=x",
      });
      await visit("https://example.com/person", { "user-agent": UA.chrome });
      expect(sent).toHaveLength(0);
      for (let i = 0; i < 47; i++)
        await visit(`https://example.com/crawled/${i}`, { "user-agent": UA.googlebot });
      expect(sent).toHaveLength(1);
      await Promise.all(sent);
      const events = posted.batches[0]!.events;
      expect(events).toHaveLength(50);
      expect(events.map((e) => e.path).slice(0, 3)).toEqual(["/signed", "/mistral", "/from-le-chat"]);
      expect(events[0]).toMatchObject({
        method: "GET",
        host: "example.com",
        signature: "sig1=:AAAA:",
        signatureAgent: '"https://chatgpt.com"',
      });
      expect(signatureFields(events[1])).toEqual([]);
      expect(await posted.answers[0]).toMatchObject({ received: 50, rejected: [] });
    } finally {
      posted.restore();
    }
  });

  test("Cloudflare Worker, as shipped: programs that name no bot and scripts with no user agent are sent too", async () => {
    const { visit, sent, posted } = await startWorker();
    try {
      await visit("https://example.com/monitored", { "user-agent": "Uptime-Kuma/1.23.16" });
      await visit("https://example.com/feed", { "user-agent": "Feedbin feed-id:2005098 - 2 subscribers" });
      await visit("https://example.com/scripted", {});
      await visit("https://example.com/person", { "user-agent": UA.chrome });
      await visit("https://example.com/phone", {
        "user-agent":
          "Mozilla/5.0 (Linux; Android 15; CPH2655 Build/AP3A.240617.008) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.6045.163 Mobile Safari/537.36",
      });
      for (let i = 0; i < 47; i++)
        await visit(`https://example.com/crawled/${i}`, { "user-agent": UA.googlebot });
      expect(sent).toHaveLength(1);
      await Promise.all(sent);
      const events = posted.batches[0]!.events;
      expect(events.map((e) => e.path).slice(0, 3)).toEqual(["/monitored", "/feed", "/scripted"]);
      expect(events).toHaveLength(50);
      expect(await posted.answers[0]).toMatchObject({ received: 50, rejected: [] });
      // What the service makes of them: a bot each, under its own name.
      expect(events.slice(0, 3).map((e) => classifyUserAgent(String(e.userAgent)))).toMatchObject([
        { kind: "bot", bot: { name: "Uptime-Kuma" } },
        { kind: "bot", bot: { name: "Feedbin" } },
        { kind: "bot", bot: { name: "(no user agent)" } },
      ]);
    } finally {
      posted.restore();
    }
  });

  test("docs/tracking.md shows the dashboard's snippets as they are", () => {
    const docs = readFileSync(path.join(process.cwd(), "docs/tracking.md"), "utf8");
    const shown = trackingSnippets("https://findable.example.com", "example.com").filter(
      (s) => s.title !== "Test with curl",
    );
    expect(shown.map((s) => s.title)).toEqual(["Next.js (proxy.ts)", "Express", "Cloudflare Worker"]);
    for (const snippet of shown) expect(docs).toContain(snippet.code);
  });
});
