import { readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGuardedFetch } from "@/lib/fetch/guarded-fetch";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { parseRobotsTxt } from "./robots";
import { findSitemaps, isUrlListed, parseSitemapXml } from "./sitemap";

const dir = path.resolve(import.meta.dirname, "../../test/fixtures/sitemaps");
const fixture = (name: string, origin: string) =>
  readFileSync(path.join(dir, name), "utf8").replaceAll("{{origin}}", origin);

let server: FixtureServer;
let robotsBody = "";
const fetcher = createGuardedFetch({ allowPrivateTargets: "loopback" });

beforeAll(async () => {
  const xml = (name: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
    res.writeHead(200, { "content-type": "application/xml" });
    res.end(fixture(name, server.url));
  };
  server = await startFixtureServer({
    routes: {
      "/robots.txt": (_req, res) => {
        res.writeHead(robotsBody ? 200 : 404, { "content-type": "text/plain" });
        res.end(robotsBody);
      },
      "/sitemap.xml": xml("urlset.xml"),
      "/sitemaps/index.xml": xml("index.xml"),
      "/sitemaps/pages.xml": xml("pages.xml"),
      "/sitemaps/nested-index.xml": xml("nested-index.xml"),
      "/sitemaps/deep-index.xml": xml("deep-index.xml"),
      "/sitemaps/too-deep.xml": xml("too-deep.xml"),
      "/sitemaps/posts.xml.gz": (_req, res) => {
        res.writeHead(200, { "content-type": "application/gzip" });
        res.end(zlib.gzipSync(fixture("posts.xml", server.url)));
      },
      "/not-a-sitemap.xml": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<!doctype html><html><body>Oops</body></html>");
      },
    },
  });
});
afterAll(() => server.close());

describe("parseSitemapXml", () => {
  test("reads a urlset with its optional fields and reports bad entries", () => {
    const origin = "https://shop.example";
    const parsed = parseSitemapXml(fixture("urlset.xml", origin), `${origin}/sitemap.xml`);
    expect(parsed.kind).toBe("urlset");
    expect(parsed.urls).toEqual([
      { loc: `${origin}/`, lastmod: "2025-01-15", changefreq: "weekly", priority: 1 },
      { loc: `${origin}/docs/getting-started`, lastmod: "2025-02-01T10:30:00+00:00" },
      { loc: `${origin}/search?q=a&page=2` },
      { loc: "https://elsewhere.example/page" },
    ]);
    const messages = parsed.issues.map((i) => `${i.severity}: ${i.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^warning: <lastmod> "yesterday"/),
      expect.stringMatching(/^warning: <priority> "7"/),
      "error: Entry 4 has no <loc>.",
      expect.stringMatching(/^error: <loc> "\/relative\/page" is not an absolute/),
      expect.stringMatching(/^warning: https:\/\/elsewhere\.example\/page is on another host/),
    ]);
  });

  test("reads a sitemapindex", () => {
    const parsed = parseSitemapXml(fixture("index.xml", "https://a.example"), "https://a.example/index.xml");
    expect(parsed.kind).toBe("sitemapindex");
    expect(parsed.sitemaps).toHaveLength(5);
    expect(parsed.urls).toEqual([]);
  });

  test("rejects a document that is not a sitemap", () => {
    const parsed = parseSitemapXml("<html><body>hi</body></html>", "https://a.example/sitemap.xml");
    expect(parsed.kind).toBe("invalid");
    expect(parsed.issues[0]?.severity).toBe("error");
  });

  test("accepts a namespace prefix", () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.example/x</sm:loc></sm:url></sm:urlset>`;
    expect(parseSitemapXml(xml, "https://a.example/s.xml").urls).toEqual([{ loc: "https://a.example/x" }]);
  });
});

describe("findSitemaps", () => {
  test("falls back to /sitemap.xml when robots.txt names none", async () => {
    robotsBody = "";
    const report = await findSitemaps(fetcher, `${server.url}/some/page`);
    expect(report.sources).toEqual([
      { url: `${server.url}/sitemap.xml`, from: "default", status: 200, kind: "urlset", urlCount: 4 },
    ]);
    expect(isUrlListed(report, `${server.url}/docs/getting-started`)).toBe(true);
    expect(isUrlListed(report, `${server.url}/docs/getting-started/#intro`)).toBe(true);
    expect(isUrlListed(report, `${server.url}/docs/other`)).toBe(false);
  });

  test("follows robots.txt, nested indexes, .gz files, within the depth bound", async () => {
    robotsBody = "User-agent: *\nDisallow:\nSitemap: /sitemaps/index.xml\n";
    const report = await findSitemaps(fetcher, server.url);
    expect(report.sources.map((s) => [s.url.replace(server.url, ""), s.from, s.kind, s.urlCount])).toEqual([
      ["/sitemaps/index.xml", "robots", "sitemapindex", 0],
      ["/sitemaps/pages.xml", "index", "urlset", 2],
      ["/sitemaps/posts.xml.gz", "index", "urlset", 2],
      ["/sitemaps/nested-index.xml", "index", "sitemapindex", 0],
      ["/sitemaps/missing.xml", "index", "unreachable", 0],
      ["/sitemaps/deep-index.xml", "index", "sitemapindex", 0],
    ]);
    expect(report.urls.map((u) => u.loc.replace(server.url, ""))).toEqual([
      "/about",
      "/pricing",
      "/blog/first-post",
      "/blog/second-post/",
    ]);
    expect(report.truncated).toBe(true);
    expect(report.issues).toContainEqual({
      sitemap: `${server.url}/sitemaps/missing.xml`,
      severity: "error",
      message: "HTTP 404",
    });
    expect(
      report.issues.some((i) => i.sitemap.endsWith("/too-deep.xml") && /deeper than 2/.test(i.message)),
    ).toBe(true);
    expect(server.requests).not.toContain("/sitemaps/too-deep.xml");
    expect(isUrlListed(report, `${server.url}/blog/second-post`)).toBe(true);
  });

  test("bounds the number of URLs and sitemap files", async () => {
    const robots = parseRobotsTxt(`Sitemap: ${server.url}/sitemaps/index.xml\n`);
    const few = await findSitemaps(fetcher, server.url, { robots, maxUrls: 3 });
    expect(few.urls).toHaveLength(3);
    expect(few.truncated).toBe(true);
    const files = await findSitemaps(fetcher, server.url, { robots, maxSitemaps: 2 });
    expect(files.sources).toHaveLength(2);
    expect(files.truncated).toBe(true);
  });

  test("reports a missing sitemap and a document that is not one", async () => {
    const none = await findSitemaps(fetcher, server.url, {
      robots: parseRobotsTxt(`Sitemap: ${server.url}/nope.xml`),
    });
    expect(none.sources[0]).toMatchObject({ status: 404, kind: "unreachable" });
    expect(none.urls).toEqual([]);
    const html = await findSitemaps(fetcher, server.url, {
      robots: parseRobotsTxt(`Sitemap: ${server.url}/not-a-sitemap.xml`),
    });
    expect(html.sources[0]).toMatchObject({ status: 200, kind: "invalid" });
    expect(html.issues[0]?.severity).toBe("error");
  });

  test("a sitemap on a forbidden address is reported, not thrown", async () => {
    const robots = parseRobotsTxt("Sitemap: http://169.254.169.254/sitemap.xml\n");
    const report = await findSitemaps(fetcher, server.url, { robots });
    expect(report.sources[0]?.kind).toBe("unreachable");
    expect(report.issues[0]?.message).toMatch(/metadata/);
  });
});
