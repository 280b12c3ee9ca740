import { afterEach, describe, expect, test } from "vitest";
import { createGuardedFetch, type Resolver } from "@/lib/fetch/guarded-fetch";
import type { FixtureHandler, FixtureServer } from "@/test/fixture-server";
import { startFixtureServer } from "@/test/fixture-server";
import { buildFixtureSite, type FixtureSiteOptions } from "@/test/fixtures/generated-site";
import { CrawlBlockedError, crawlSite, normaliseUrl } from "./crawl-site";

const fetcher = createGuardedFetch({ allowPrivateTargets: "loopback" });
const servers: FixtureServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(routes: Record<string, FixtureHandler>) {
  const server = await startFixtureServer({ routes });
  servers.push(server);
  return server;
}

/** The generated site plus a second server standing for another host (localhost, not 127.0.0.1). */
async function startSite(options: FixtureSiteOptions = {}) {
  const offHost = await serve({ "/status": (_req, res) => void res.end("up") });
  const site = buildFixtureSite({ ...options, offHostUrl: `http://localhost:${offHost.port}/status` });
  const server = await serve(site.routes);
  return { site, server, offHost };
}

const pathsOf = (urls: string[]) => urls.map((u) => new URL(u).pathname);

describe("crawlSite on the generated 50-page site", () => {
  test("uses the sitemap, obeys robots.txt and stays on the host", async () => {
    const { site, server, offHost } = await startSite();
    const result = await crawlSite(fetcher, `${server.url}/`);
    expect(result.discovery).toBe("sitemap");
    expect(result.pages).toHaveLength(50);
    expect(pathsOf(result.pages.map((p) => p.finalUrl)).sort()).toEqual(site.pages.map((p) => p.path).sort());
    expect(result.pages[0]?.url).toBe(`${server.url}/`);
    expect(result.skipped).toContainEqual({ url: `${server.url}/private/admin`, reason: "robots" });
    expect(server.requests).not.toContain("/private/admin");
    expect(offHost.requests).toEqual([]);
    expect(result.truncated).toBe(false);
    expect(result.robots.robots.mode).toBe("rules");
    expect(result.sitemap?.urls).toHaveLength(51);
  });

  test("without a sitemap, follows links breadth first and skips what it must", async () => {
    const { site, server, offHost } = await startSite({ sitemap: false });
    const result = await crawlSite(fetcher, `${server.url}/`);
    expect(result.discovery).toBe("links");
    expect(pathsOf(result.pages.map((p) => p.url)).sort()).toEqual(site.pages.map((p) => p.path).sort());
    // Breadth first: every top-level page comes before any nested one.
    const depths = result.pages.map((p) => new URL(p.url).pathname.split("/").filter(Boolean).length);
    expect(depths.slice(0, 10)).toEqual(depths.slice(0, 10).sort());
    expect(server.requests).not.toContain("/private/admin");
    expect(server.requests).not.toContain("/files/brochure.pdf");
    expect(server.requests.filter((r) => r.includes("utm_source"))).toEqual([]);
    expect(result.skipped).toContainEqual({ url: `${server.url}/files/brochure.pdf`, reason: "non-html" });
    expect(offHost.requests).toEqual([]);
    const pagePaths = server.requests.filter((r) => !["/robots.txt", "/sitemap.xml"].includes(r));
    expect(new Set(pagePaths).size).toBe(pagePaths.length);
  });

  test("keeps the facts of each page", async () => {
    const { site, server } = await startSite();
    const result = await crawlSite(fetcher, `${server.url}/`);
    const planted = site.pages.find((p) => p.kind === "docs" && p.path !== "/docs")!;
    const page = result.pages.find((p) => p.url === `${server.url}${planted.path}`);
    expect(page).toMatchObject({
      status: 200,
      title: `${planted.title} | ${site.siteName}`,
      metaDescription: planted.description,
      canonical: `${server.url}${planted.path}`,
      lang: "en",
      siteName: site.siteName,
      headings: [
        { level: 1, text: planted.h1 },
        { level: 2, text: "Overview" },
        { level: 3, text: "Details" },
      ],
    });
    expect(page?.summary).toContain(planted.description);
  });
});

describe("crawl bounds", () => {
  test("stops at maxPages", async () => {
    const { server } = await startSite({ sitemap: false });
    const result = await crawlSite(fetcher, `${server.url}/`, { maxPages: 10 });
    expect(result.pages).toHaveLength(10);
    expect(result.truncated).toBe(true);
    const htmlRequests = server.requests.filter((r) => !["/robots.txt", "/sitemap.xml"].includes(r));
    expect(htmlRequests).toHaveLength(10);
  });

  test("never fetches more than 200 pages", async () => {
    const { server } = await startSite({ pages: 210 });
    const result = await crawlSite(fetcher, `${server.url}/`, { maxPages: 1000 });
    expect(result.pages).toHaveLength(200);
    expect(result.truncated).toBe(true);
  });

  test("runs at most four fetches at once", async () => {
    const site = buildFixtureSite({ pages: 20 });
    let inFlight = 0;
    let peak = 0;
    const slow: Record<string, FixtureHandler> = {};
    for (const [path, handler] of Object.entries(site.routes)) {
      slow[path] = async (req, res) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 40));
        inFlight--;
        await handler(req, res);
      };
    }
    const server = await serve(slow);
    const result = await crawlSite(fetcher, `${server.url}/`);
    expect(result.pages).toHaveLength(20);
    expect(peak).toBe(4);
  });

  test("stops starting fetches when the time budget is spent", async () => {
    const site = buildFixtureSite({ pages: 30 });
    const routes: Record<string, FixtureHandler> = { ...site.routes };
    for (const page of site.pages.slice(1)) {
      routes[page.path] = async (req, res) => {
        await new Promise((r) => setTimeout(r, 150));
        await site.routes[page.path]!(req, res);
      };
    }
    const server = await serve(routes);
    const started = Date.now();
    const result = await crawlSite(fetcher, `${server.url}/`, { timeLimitMs: 400 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.truncated).toBe(true);
    expect(result.pages.length).toBeLessThan(30);
  });
});

describe("start page", () => {
  test("a start page disallowed by robots.txt is not fetched", async () => {
    const server = await serve({
      "/robots.txt": (_req, res) => void res.end("User-agent: SiteAuditBot\nDisallow: /\n"),
      "/": (_req, res) => void res.end("<html></html>"),
    });
    await expect(crawlSite(fetcher, `${server.url}/`)).rejects.toBeInstanceOf(CrawlBlockedError);
    expect(server.requests).toEqual(["/robots.txt"]);
  });

  test("a forbidden start URL throws the fetcher's error", async () => {
    const resolver: Resolver = async () => [{ address: "10.0.0.8", family: 4 }];
    const strict = createGuardedFetch({ resolver });
    await expect(crawlSite(strict, "http://intranet.test/")).rejects.toMatchObject({
      code: "TARGET_FORBIDDEN",
    });
  });

  test("an error page is returned without crawling further", async () => {
    const server = await serve({
      "/": (_req, res) => {
        res.writeHead(503, { "content-type": "text/html" });
        res.end('<html><body><a href="/a">a</a></body></html>');
      },
    });
    const result = await crawlSite(fetcher, `${server.url}/`);
    expect(result.pages.map((p) => p.status)).toEqual([503]);
    expect(server.requests).toEqual(["/robots.txt", "/"]);
  });
});

test("normaliseUrl drops fragments, tracking parameters and a trailing slash", () => {
  expect(normaliseUrl("https://a.example/docs/?utm_source=x&id=2#top")).toBe("https://a.example/docs?id=2");
  expect(normaliseUrl("https://A.example/")).toBe("https://a.example/");
});
