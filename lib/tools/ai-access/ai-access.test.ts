import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect } from "vitest";
import type { AiAccess } from "@/lib/analysis/ai-access/schema";
import type { Db, DbHandle } from "@/lib/db/client";
import { domains, trackingDailyBots } from "@/lib/db/schema";
import { createTestAccount } from "@/test/accounts";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { dbTest, toolContext } from "@/test/support/fixtures";
import type { ToolContext } from "../types";
import { aiAccess } from "./definition";
import { runner } from "./run";

const HOME = `<!doctype html><html><head><title>Home</title></head><body>
<a href="/blog/first-post">Blog</a> <a href="/docs/start">Docs</a> <a href="/pricing">Pricing</a>
<a href="https://elsewhere.example/">Out</a></body></html>`;

interface SiteOptions {
  robots?: string | null;
  homeHeaders?: Record<string, string>;
  home?: string;
  /** Answers the home page for a user agent matching the pattern with this status, headers and body. */
  refuse?: { ua: RegExp; status: number; headers?: Record<string, string>; body?: string }[];
  llms?: { type: string; body: string; status?: number };
  sitemap?: string[];
}

const servers: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function site(opts: SiteOptions): Promise<FixtureServer> {
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    "/": (req, res) => {
      const ua = req.headers["user-agent"] ?? "";
      const refusal = opts.refuse?.find((r) => r.ua.test(ua));
      if (refusal) {
        res.writeHead(refusal.status, { "content-type": "text/html", ...refusal.headers });
        res.end(refusal.body ?? "<html><body>Forbidden</body></html>");
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...opts.homeHeaders });
      res.end(opts.home ?? HOME);
    },
  };
  if (opts.robots !== null && opts.robots !== undefined) {
    const body = opts.robots;
    routes["/robots.txt"] = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(body);
    };
  }
  if (opts.llms) {
    const llms = opts.llms;
    routes["/llms.txt"] = (_req, res) => {
      res.writeHead(llms.status ?? 200, { "content-type": llms.type });
      res.end(llms.body);
    };
  }
  if (opts.sitemap) {
    const urls = opts.sitemap;
    routes["/sitemap.xml"] = (req, res) => {
      res.writeHead(200, { "content-type": "application/xml" });
      const origin = `http://${req.headers.host}`;
      res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${origin}${u}</loc></url>`).join("")}</urlset>`,
      );
    };
  }
  const server = await startFixtureServer({ routes });
  servers.push(server);
  return server;
}

const test = dbTest;
let handle: DbHandle;
let db: Db;
test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  db = handle.db;
});

function context(accountId = "00000000-0000-4000-8000-000000000000", withDb = false): ToolContext {
  return toolContext({ accountId, ...(withDb ? { db } : {}) });
}

async function run(server: FixtureServer, ctx = context()): Promise<AiAccess> {
  return aiAccess.result.parse(await runner.run({ url: `${server.url}/` }, ctx)) as AiAccess;
}

const row = (r: AiAccess, token: string) => {
  const found = r.rows.find((x) => x.token.toLowerCase() === token.toLowerCase());
  if (!found) throw new Error(`no row for ${token}`);
  return found;
};
const said = (r: AiAccess) => r.contradictions.map((c) => c.message);

describe("ai-access against fixture sites", () => {
  test("a robots.txt group naming several AI crawlers blocks each of them; others stay allowed", async () => {
    const s = await site({
      robots: "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    });
    const r = await run(s);
    expect(row(r, "GPTBot")).toMatchObject({ operator: "OpenAI", purpose: "training", status: "blocked" });
    expect(row(r, "GPTBot").by.join(" ")).toMatch(
      /robots\.txt: the group naming GPTBot blocks GPTBot on every path checked \(Disallow: \/ \(line 3\)\)/,
    );
    expect(row(r, "CCBot")).toMatchObject({ operator: "Common Crawl", status: "blocked" });
    expect(row(r, "ClaudeBot").status).toBe("allowed");
    expect(row(r, "OAI-SearchBot")).toMatchObject({ purpose: "search-index", status: "allowed" });
    // The home page and one URL per section from its links, never another origin.
    expect(r.paths).toEqual(["/", "/blog/first-post", "/docs/start", "/pricing"]);
  });

  test("a disallow of some sections only reads as partly, naming the paths and the rule", async () => {
    const s = await site({
      robots: "User-agent: ClaudeBot\nDisallow: /docs/\n",
      sitemap: ["/docs/a", "/blog/b"],
    });
    const r = await run(s);
    expect(row(r, "ClaudeBot").status).toBe("partly");
    expect(row(r, "ClaudeBot").by[0]).toMatch(
      /blocks ClaudeBot on 1 of \d paths checked \(\/docs\/\S* by Disallow: \/docs\/ \(line 2\)\)/,
    );
    expect(row(r, "GPTBot").status).toBe("allowed");
  });

  test("a user fetcher blocked means the assistant cannot read pages users ask about", async () => {
    const s = await site({ robots: "User-agent: ChatGPT-User\nDisallow: /\n" });
    const r = await run(s);
    expect(row(r, "ChatGPT-User")).toMatchObject({ purpose: "user-fetch", status: "blocked" });
    expect(said(r)).toContain("ChatGPT-User is blocked, so ChatGPT cannot read pages a user asks about");
  });

  test("Content-Signal in the * group: ai-train=no blocks training, and GPTBot still allowed by robots.txt is a contradiction", async () => {
    const s = await site({
      robots: "User-Agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n",
    });
    const r = await run(s);
    expect(r.signals.contentSignal).toEqual([
      expect.objectContaining({ userAgents: ["*"], line: 2, search: "yes", aiInput: "yes", aiTrain: "no" }),
    ]);
    expect(row(r, "GPTBot").status).toBe("blocked");
    expect(row(r, "GPTBot").by).toContain("Content-Signal: ai-train=no (robots.txt line 2, group *)");
    expect(row(r, "OAI-SearchBot").status).toBe("allowed");
    expect(said(r).some((m) => m.startsWith("ai-train=no but GPTBot is allowed by robots.txt"))).toBe(true);
  });

  test("a Content-Signal line before any user-agent line is read as meant for every crawler", async () => {
    const s = await site({ robots: "Content-Signal: ai-train=no\n\nUser-agent: *\nAllow: /\n" });
    const r = await run(s);
    expect(row(r, "CCBot").status).toBe("blocked");
    expect(row(r, "CCBot").by).toContain(
      "Content-Signal: ai-train=no (robots.txt line 1, before any group, read as for every crawler)",
    );
  });

  test("a Content-Signal in one crawler's group does not apply to the others", async () => {
    const s = await site({
      robots: "User-agent: *\nAllow: /\n\nUser-agent: PerplexityBot\nContent-Signal: search=no\nAllow: /\n",
    });
    const r = await run(s);
    expect(row(r, "PerplexityBot").status).toBe("blocked");
    expect(row(r, "OAI-SearchBot").status).toBe("allowed");
  });

  test("Content-Usage as an HTTP header and as a robots.txt rule (IETF AI preferences)", async () => {
    const s = await site({
      robots: "User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\nContent-Usage: /docs/ train-ai=y\n",
      homeHeaders: { "content-usage": "ai-use=n, search=y, bots=n" },
    });
    const r = await run(s);
    expect(r.signals.contentUsage?.header).toMatchObject({ aiUse: "n", search: "y", unknown: ["bots"] });
    expect(r.signals.contentUsage?.robots).toEqual([
      expect.objectContaining({ path: "/", trainAi: "n", line: 3 }),
      expect.objectContaining({ path: "/docs/", trainAi: "y", line: 4 }),
    ]);
    expect(row(r, "GPTBot").status).toBe("blocked");
    expect(row(r, "GPTBot").by).toContain("Content-Usage: train-ai=n (robots.txt line 3, path /)");
    expect(row(r, "ChatGPT-User").status).toBe("blocked");
    expect(row(r, "ChatGPT-User").by).toContain("Content-Usage: ai-use=n (HTTP header of the page checked)");
    expect(row(r, "OAI-SearchBot").status).toBe("allowed");
  });

  test("X-Robots-Tag noai, a crawler-scoped X-Robots-Tag and robots meta tags", async () => {
    const s = await site({
      robots: "User-agent: *\nAllow: /\n",
      homeHeaders: { "x-robots-tag": "noai, noimageai" },
      home: `<html><head><meta name="robots" content="max-snippet:50"><meta name="PerplexityBot" content="noindex"><meta name="viewport" content="x"></head><body></body></html>`,
    });
    const r = await run(s);
    expect(r.signals.robotsMeta).toEqual([
      { source: "x-robots-tag", agent: "robots", directives: ["noai", "noimageai"] },
      { source: "meta", agent: "robots", directives: ["max-snippet:50"] },
      { source: "meta", agent: "perplexitybot", directives: ["noindex"] },
    ]);
    expect(row(r, "ClaudeBot").status).toBe("blocked");
    expect(row(r, "ClaudeBot").by.join("\n")).toMatch(/X-Robots-Tag: noai/);
    expect(row(r, "PerplexityBot").status).toBe("blocked");
    expect(row(r, "PerplexityBot").by.join("\n")).toMatch(/<meta name="perplexitybot">: noindex/);
    expect(row(r, "OAI-SearchBot").status).toBe("allowed");
    expect(row(r, "OAI-SearchBot").by.join("\n")).toMatch(/max-snippet:50 limits/);
  });

  test("the page asked about counts too when it is not the home page; header preferences combine most restrictively", async () => {
    const s = await site({
      robots: "User-agent: *\nAllow: /\n",
      homeHeaders: { "content-usage": "train-ai=y" },
    });
    const r0 = await run(s);
    expect(row(r0, "GPTBot").status).toBe("allowed");
    const server = await startFixtureServer({
      routes: {
        "/": (_q, res) => {
          res.writeHead(200, { "content-type": "text/html", "content-usage": "train-ai=y" });
          res.end(HOME);
        },
        "/article": (_q, res) => {
          res.writeHead(200, {
            "content-type": "text/html",
            "x-robots-tag": "claudebot: noai",
            "content-usage": "train-ai=n",
          });
          res.end("<html><body><p>An article.</p></body></html>");
        },
      },
    });
    servers.push(server);
    const r = aiAccess.result.parse(
      await runner.run({ url: `${server.url}/article` }, context()),
    ) as AiAccess;
    expect(r.signals.contentUsage?.header).toMatchObject({ trainAi: "n", raw: "train-ai=y | train-ai=n" });
    expect(r.signals.robotsMeta).toContainEqual({
      source: "x-robots-tag",
      agent: "claudebot",
      directives: ["noai"],
    });
    expect(row(r, "GPTBot").status).toBe("blocked");
    expect(row(r, "ClaudeBot").by.join("\n")).toMatch(/X-Robots-Tag \(claudebot\): noai/);
    expect(r.paths).toContain("/article");
  });

  test("TDMRep: tdmrep.json reserves TDM rights for training rows; a page's header, then its meta tag, supersedes it", async () => {
    const policy = "https://rights.example/tdm-policy.json";
    const server = await startFixtureServer({
      routes: {
        "/robots.txt": (_q, res) => {
          res.writeHead(200, { "content-type": "text/plain" });
          res.end("User-agent: *\nAllow: /\n");
        },
        "/.well-known/tdmrep.json": (_q, res) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify([
              { location: "/images/*.jpg", "tdm-reservation": 0 },
              { location: "/", "tdm-reservation": 1, "tdm-policy": policy },
              { location: "/never-reached", "tdm-reservation": 0 },
            ]),
          );
        },
        "/": (_q, res) => {
          res.writeHead(200, { "content-type": "text/html" });
          res.end(HOME);
        },
        "/open": (_q, res) => {
          res.writeHead(200, { "content-type": "text/html", "tdm-reservation": "0" });
          res.end("<html><body><p>Free to mine.</p></body></html>");
        },
        "/meta": (_q, res) => {
          res.writeHead(200, { "content-type": "text/html", "tdm-reservation": "0" });
          res.end(
            '<html><head><meta name="TDM-Reservation" content="1"></head><body>Reserved.</body></html>',
          );
        },
      },
    });
    servers.push(server);
    const at = async (path: string) =>
      aiAccess.result.parse(await runner.run({ url: `${server.url}${path}` }, context())) as AiAccess;

    const home = await at("/");
    expect(home.signals.tdmrep).toMatchObject({
      path: "/",
      reservation: 1,
      policy,
      source: "tdmrep.json",
      header: null,
      meta: null,
      file: { present: true, status: 200, issues: [] },
    });
    expect(home.signals.tdmrep?.file.rules).toHaveLength(3);
    expect(row(home, "GPTBot").status).toBe("blocked");
    expect(row(home, "GPTBot").by).toContain(
      `TDMRep: tdm-reservation: 1 (/.well-known/tdmrep.json, for /) reserves text and data mining rights, AI training included; a licence may be asked for at ${policy}`,
    );
    // Search and user fetches are not text and data mining for training: their rows stay as robots.txt says.
    expect(row(home, "OAI-SearchBot").status).toBe("allowed");
    expect(row(home, "ChatGPT-User").status).toBe("allowed");
    expect(
      said(home).some((m) => m.startsWith("tdm-reservation: 1 but GPTBot is allowed by robots.txt")),
    ).toBe(true);

    const open = await at("/open");
    expect(open.signals.tdmrep).toMatchObject({
      path: "/open",
      reservation: 0,
      policy: null,
      source: "header",
    });
    expect(row(open, "GPTBot").status).toBe("allowed");
    expect(row(open, "GPTBot").by).toContain(
      "TDMRep: tdm-reservation: 0 (the page's tdm-reservation header, for /open): text and data mining rights are not reserved",
    );
    expect(said(open)).toContain(
      "/.well-known/tdmrep.json says tdm-reservation: 1 for /open (location /), but the page's tdm-reservation header says 0, which supersedes it",
    );

    const meta = await at("/meta");
    expect(meta.signals.tdmrep).toMatchObject({
      reservation: 1,
      source: "meta",
      header: { reservation: 0, policy: null },
      meta: { reservation: 1, policy: null },
      // The file's policy stands: the later techniques state none.
      policy,
    });
    expect(row(meta, "ClaudeBot").status).toBe("blocked");
  });

  test("TDMRep: no file (404) or an HTML page at its address and no header or meta tag: no declaration", async () => {
    const none = await run(await site({ robots: "User-agent: *\nAllow: /\n" }));
    expect(none.signals.tdmrep).toBeUndefined();
    expect(row(none, "GPTBot").by.join("\n")).not.toMatch(/TDMRep/);
    const server = await startFixtureServer({
      routes: {
        "/.well-known/tdmrep.json": (_q, res) => {
          res.writeHead(200, { "content-type": "text/html" });
          res.end("<!doctype html><html><body>Page not found</body></html>");
        },
        "/": (_q, res) => {
          res.writeHead(200, { "content-type": "text/html" });
          res.end(HOME);
        },
      },
    });
    servers.push(server);
    const soft404 = await run(server);
    expect(soft404.signals.tdmrep).toBeUndefined();
  });

  test("a server that answers GPTBot's user agent 403 while robots.txt allows it", async () => {
    const s = await site({ robots: "User-agent: *\nAllow: /\n", refuse: [{ ua: /GPTBot/, status: 403 }] });
    const r = await run(s);
    expect(row(r, "GPTBot").status).toBe("blocked");
    expect(row(r, "GPTBot").by.join("\n")).toMatch(
      /server: answers GPTBot's user agent with HTTP 403 while a browser gets HTTP 200/,
    );
    expect(
      said(r).some((m) => m.startsWith("robots.txt allows GPTBot but the server answers it HTTP 403")),
    ).toBe(true);
    expect(row(r, "ClaudeBot").status).toBe("allowed");
    expect(r.serverAnswers.browser).toEqual({ status: 200, challenge: null });
    expect(r.serverAnswers.bots.find((b) => b.token === "GPTBot")).toMatchObject({
      status: 403,
      refused: true,
    });
  });

  test("a challenge page served to AI crawlers is recognised and named", async () => {
    const s = await site({
      robots: "User-agent: *\nAllow: /\n",
      refuse: [
        {
          ua: /OAI-SearchBot|ClaudeBot/,
          status: 403,
          headers: { "cf-mitigated": "challenge" },
          body: '<html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>',
        },
      ],
    });
    const r = await run(s);
    expect(said(r)).toContain(
      "robots.txt allows OAI-SearchBot but the server answers it a Cloudflare challenge page (HTTP 403) (a browser gets HTTP 200): a firewall or CDN rule blocks it",
    );
    expect(row(r, "ClaudeBot").status).toBe("blocked");
  });

  test("a server refusing every user agent, a browser's too, is not blamed on the AI crawlers", async () => {
    const s = await site({ robots: "User-agent: *\nAllow: /\n", refuse: [{ ua: /./, status: 403 }] });
    const r = await run(s);
    expect(row(r, "GPTBot").status).toBe("allowed");
    expect(said(r).filter((m) => m.includes("server answers"))).toEqual([]);
  });

  test("llms.txt served as an HTML page with status 200 is not an llms.txt", async () => {
    const s = await site({
      robots: "User-agent: *\nAllow: /\n",
      llms: { type: "text/html", body: "<!doctype html><html><body>Not found</body></html>" },
    });
    const r = await run(s);
    expect(r.llmsTxt).toMatchObject({ present: false, valid: false, servedAs: "html", status: 200 });
    expect(said(r).some((m) => /llms\.txt answers HTTP 200 with an HTML page/.test(m))).toBe(true);
  });

  test("llms.txt served as text: valid, and invalid without its H1 title", async () => {
    const good = await site({
      robots: "User-agent: *\nAllow: /\n",
      llms: {
        type: "text/plain; charset=utf-8",
        body: "# Shop\n\n> We sell tea.\n\n## Docs\n\n- [Start](https://example.com/start): first steps\n",
      },
    });
    expect((await run(good)).llmsTxt).toMatchObject({
      present: true,
      valid: true,
      servedAs: "text",
      issues: [],
    });
    const bad = await site({
      robots: "User-agent: *\nAllow: /\n",
      llms: { type: "text/markdown", body: "Some notes about the shop\n\n- a list\n" },
    });
    const r = await run(bad);
    expect(r.llmsTxt).toMatchObject({ present: true, valid: false, servedAs: "text" });
    expect(r.llmsTxt.issues.join("\n")).toMatch(/error/);
    expect(r.llmsTxt.full).toMatchObject({ present: false, servedAs: "none", status: 404 });
  });

  test("messy robots.txt: BOM, CRLF, upper-case keys and tokens, wildcards and $", async () => {
    const s = await site({
      robots:
        "\uFEFFUSER-AGENT: gptbot\r\nDISALLOW: /*.pdf$\r\nDisallow: /blog/\r\n\r\nuser-agent: claudebot\r\nuser-agent: PERPLEXITYBOT\r\ndisallow: /\r\nallow: /$\r\n",
    });
    const r = await run(s);
    expect(row(r, "GPTBot").status).toBe("partly");
    expect(row(r, "GPTBot").by[0]).toMatch(/\/blog\/first-post by Disallow: \/blog\/ \(line 3\)/);
    // "Allow: /$" lets the home page in; everything else is disallowed.
    expect(row(r, "ClaudeBot").status).toBe("partly");
    expect(row(r, "PerplexityBot").status).toBe("partly");
    expect(row(r, "OAI-SearchBot").status).toBe("allowed");
  });

  test("no robots.txt (404) allows everyone; a 5xx robots.txt closes the site", async () => {
    const none = await site({ robots: null });
    const r = await run(none);
    expect(r.rows.every((x) => x.status === "allowed")).toBe(true);
    expect(row(r, "GPTBot").by[0]).toMatch(/robots\.txt: none at .* \(HTTP 404\)/);
    const broken = await startFixtureServer({
      routes: {
        "/robots.txt": (_q, res) => {
          res.writeHead(503);
          res.end();
        },
        "/": (_q, res) => {
          res.writeHead(200, { "content-type": "text/html" });
          res.end(HOME);
        },
      },
    });
    servers.push(broken);
    const closed = await run(broken);
    expect(closed.rows.every((x) => x.status === "blocked")).toBe(true);
  });

  test("the number of requests is bounded", async () => {
    const s = await site({ robots: "User-agent: *\nAllow: /\n" });
    await run(s);
    const homeHits = s.requests.filter((p) => p === "/").length;
    expect(homeHits).toBeLessThanOrEqual(19);
    expect(s.requests.length).toBeLessThanOrEqual(30);
  });

  test("with tracking: allowed but never visited, and blocked yet visited (unverified)", async () => {
    const account = await createTestAccount(db);
    const s = await site({ robots: "User-agent: ClaudeBot\nDisallow: /\n" });
    const [domain] = await db
      .insert(domains)
      .values({ accountId: account.accountId, hostname: "127.0.0.1", verificationToken: "t" })
      .returning();
    const today = new Date().toISOString().slice(0, 10);
    await db.insert(trackingDailyBots).values([
      {
        domainId: domain!.id,
        day: today,
        botName: "ClaudeBot",
        botPurpose: "training",
        isAiBot: true,
        visits: 1204,
        verifiedVisits: 0,
        spoofedVisits: 0,
      },
      {
        domainId: domain!.id,
        day: today,
        botName: "OAI-SearchBot",
        botPurpose: "ai_search",
        isAiBot: true,
        visits: 7,
        verifiedVisits: 7,
        spoofedVisits: 0,
      },
    ]);
    const r = await run(s, context(account.accountId, true));
    expect(r.tracking).toEqual({ used: true, days: 30 });
    expect(said(r)).toContain(
      "blocked, yet 1,204 visits claiming ClaudeBot came in 30 days (all unverified)",
    );
    expect(said(r)).toContain("allowed, but GPTBot has not visited in 30 days");
    expect(said(r).some((m) => m.includes("OAI-SearchBot has not visited"))).toBe(false);
    // Another account's job never reads these visits.
    const other = await createTestAccount(db);
    const r2 = await run(s, context(other.accountId, true));
    expect(r2.tracking.used).toBe(false);
    expect(said(r2).some((m) => m.includes("visited"))).toBe(false);
  });
});
