import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { NextRequest } from "next/server";
import { describe, expect, vi } from "vitest";
import { trackingSnippets } from "@/lib/dashboard/snippets";
import { trackingReadCache } from "@/lib/tracking/reports/read-cache";
import { apiTest } from "@/test/support/fixtures";
import type { TestAccount } from "../accounts";
import type { TestApi } from "../api-server";
import { UA } from "./helpers";

// The requests the integration snippets of docs/tracking.md send, built the way each snippet builds them.
const test = apiTest.withAccount({ domains: ["example.com"] });
let api: TestApi;
let acct: TestAccount;

test.beforeAll(async ({ api: _api, acct: _acct }) => {
  api = _api;
  acct = _acct;
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

describe("integration snippets", () => {
  test("Next.js proxy/middleware: NextRequest fields, batched", async () => {
    const visit = (url: string, headers: Record<string, string>) => {
      const req = new NextRequest(url, { headers });
      return {
        domain: req.nextUrl.hostname,
        path: req.nextUrl.pathname + req.nextUrl.search,
        userAgent: req.headers.get("user-agent") ?? "",
        ip: req.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || undefined,
        referrer: req.headers.get("referer") ?? undefined,
        timestamp: new Date().toISOString(),
      };
    };
    const events = [
      visit("https://www.example.com/pricing?plan=pro", {
        "user-agent": UA.gptbot,
        // A client that writes a forwarded-for header of its own, and the address the proxy appended.
        "x-forwarded-for": "66.249.66.1, 20.171.207.10",
      }),
      visit("https://example.com/blog/aeo", { "user-agent": UA.chrome, referer: "https://chatgpt.com/" }),
      visit("https://example.com/", { "user-agent": UA.chrome }),
    ];
    expect(events[0]!.ip).toBe("20.171.207.10");
    const { status, body } = await sendEvents(events);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ received: 3, accepted: 2, skipped: 1, rejected: [] });
  });

  test("Express: req.ip as IPv4-mapped IPv6, status from the finished response, x-request-id as id", async () => {
    const events = [
      {
        id: "6f1b2c3d-express",
        domain: "example.com",
        path: "/docs?page=2",
        userAgent: UA.googlebot,
        ip: "::ffff:66.249.66.1",
        referrer: undefined,
        status: 404,
        timestamp: new Date().toISOString(),
      },
      {
        id: undefined,
        domain: "example.com",
        path: "/docs",
        userAgent: UA.perplexityUser,
        ip: "2001:db8::1",
        status: 200,
        timestamp: new Date().toISOString(),
      },
    ];
    const first = await sendEvents(events);
    expect(first.body.data).toMatchObject({ accepted: 2, rejected: [] });
    // The snippet puts a failed batch back and sends it again: nothing is counted twice.
    const retry = await sendEvents(events);
    expect(retry.body.data).toMatchObject({ accepted: 0, duplicates: 2 });
  });

  test("Cloudflare Worker: cf-connecting-ip, the origin's status, only bots and AI referrals sent", async () => {
    const WORTH_SENDING =
      /bot|crawl|spider|slurp|GPT|Claude|Perplexity|Google-|facebookexternal|meta-external/i;
    const AI_REFERRERS =
      /chatgpt\.com|perplexity\.ai|gemini\.google\.com|claude\.ai|copilot\.microsoft\.com/i;
    const seen = [
      { url: "https://example.com/a", ua: UA.chatgptUser, ref: "", ip: "2a01:4f8::2", status: 200 },
      {
        url: "https://example.com/b",
        ua: UA.chrome,
        ref: "https://www.perplexity.ai/search/x",
        ip: "203.0.113.5",
        status: 200,
      },
      {
        url: "https://example.com/c?utm_source=chatgpt.com",
        ua: UA.chrome,
        ref: "",
        ip: "203.0.113.6",
        status: 301,
      },
      { url: "https://example.com/d", ua: UA.chrome, ref: "", ip: "203.0.113.7", status: 200 },
    ];
    const events = seen
      .filter(
        (v) =>
          WORTH_SENDING.test(v.ua) ||
          AI_REFERRERS.test(v.ref) ||
          new URL(v.url).searchParams.has("utm_source"),
      )
      .map((v) => {
        const url = new URL(v.url);
        return {
          domain: url.hostname,
          path: url.pathname + url.search,
          userAgent: v.ua,
          ip: v.ip || undefined,
          referrer: v.ref || undefined,
          status: v.status,
          timestamp: new Date().toISOString(),
        };
      });
    expect(events).toHaveLength(3);
    const { body } = await sendEvents(events);
    expect(body.data).toMatchObject({ accepted: 3, skipped: 0, rejected: [] });
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
describe("signed agents in the snippets", () => {
  test("Next.js and Express forward a signed agent's headers; an unsigned request sends none", async () => {
    const visit = (url: string, headers: Record<string, string>) => {
      const req = new NextRequest(url, { method: "GET", headers });
      return {
        domain: req.nextUrl.hostname,
        path: req.nextUrl.pathname + req.nextUrl.search,
        userAgent: req.headers.get("user-agent") ?? "",
        referrer: req.headers.get("referer") ?? undefined,
        timestamp: new Date().toISOString(),
        method: req.method,
        host: req.headers.get("host") ?? undefined,
        signature: req.headers.get("signature") ?? undefined,
        signatureInput: req.headers.get("signature-input") ?? undefined,
        signatureAgent: req.headers.get("signature-agent") ?? undefined,
      };
    };
    const signed = visit("https://example.com/docs", {
      "user-agent": UA.gptbot,
      host: "example.com",
      signature: "sig1=:AAAA:",
      "signature-input": 'sig1=("@authority");created=1;expires=2;keyid="k";tag="web-bot-auth"',
      "signature-agent": 'sig1="https://agent.example"',
    });
    expect(signed).toMatchObject({
      method: "GET",
      host: "example.com",
      signatureAgent: 'sig1="https://agent.example"',
    });
    const plain = JSON.parse(JSON.stringify(visit("https://example.com/", { "user-agent": UA.gptbot })));
    expect(Object.keys(plain)).not.toContain("signature");
    const { status, body } = await sendEvents([signed, plain]);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ received: 2, accepted: 2, rejected: [] });
    // A host that is no Host header is refused for that event alone.
    const bad = await sendEvents([{ ...signed, host: "not a host" }]);
    expect(bad.body.data).toMatchObject({
      accepted: 0,
      rejected: [{ index: 0, errors: [{ field: "host" }] }],
    });
  });

  test("Cloudflare Worker, as shipped: signed agents, every AI agent and AI referrals sent with their headers; people not", async () => {
    const code = trackingSnippets(api.url, "example.com").find((s) => s.title === "Cloudflare Worker")!.code;
    const file = path.join(tmpdir(), `worker-snippet-${process.pid}-${Date.now()}.mjs`);
    writeFileSync(file, code);
    const worker = (await import(/* @vite-ignore */ pathToFileURL(file).href)).default as {
      fetch(request: Request, env: object, ctx: { waitUntil(p: Promise<unknown>): void }): Promise<Response>;
    };
    const realFetch = globalThis.fetch;
    const posted: { events: Record<string, unknown>[] }[] = [];
    const answers: Promise<Response>[] = [];
    // The origin answers every request; the service's endpoint is reached for real.
    const stub = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith(api.url)) return new Response("ok", { status: 200 });
      posted.push(JSON.parse(String(init?.body)));
      return realFetch(input, init);
    });
    try {
      const env = { FINDABLE_KEY: acct.key, FINDABLE_SECRET: acct.secret };
      const ctx = { waitUntil: (p: Promise<unknown>) => answers.push(p as Promise<Response>) };
      const visit = (url: string, headers: Record<string, string>) =>
        worker.fetch(new Request(url, { headers }), env, ctx);
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
      expect(posted).toHaveLength(0);
      for (let i = 0; i < 47; i++)
        await visit(`https://example.com/crawled/${i}`, { "user-agent": UA.googlebot });
      expect(posted).toHaveLength(1);
      const events = posted[0]!.events;
      expect(events).toHaveLength(50);
      expect(events.map((e) => e.path).slice(0, 3)).toEqual(["/signed", "/mistral", "/from-le-chat"]);
      expect(events[0]).toMatchObject({
        method: "GET",
        host: "example.com",
        signature: "sig1=:AAAA:",
        signatureAgent: '"https://chatgpt.com"',
      });
      expect(events[1]).not.toHaveProperty("signatureAgent");
      const answer = (await (await answers[0]!).json()) as { data: Record<string, unknown> };
      expect(answer.data).toMatchObject({ received: 50, rejected: [] });
    } finally {
      stub.mockRestore();
      rmSync(file, { force: true });
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
