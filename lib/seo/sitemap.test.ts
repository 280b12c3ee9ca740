import { readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGuardedFetch } from "@/lib/fetch/guarded-fetch";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { parseRobotsTxt } from "./robots";
import { findSitemaps, isUrlListed, parseSitemap } from "./sitemap";

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
      "/feed/": (_req, res) => {
        res.writeHead(200, { "content-type": "application/rss+xml; charset=UTF-8" });
        res.end(rss(server.url));
      },
      "/sitemap.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        res.end(`${server.url}/about\r\n${server.url}/feeds-only\r\n`);
      },
      "/not-a-sitemap.xml": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<!doctype html><html><body>Oops</body></html>");
      },
    },
  });
});
afterAll(() => server.close());

describe("parseSitemap", () => {
  test("reads a urlset with its optional fields and reports bad entries", () => {
    const origin = "https://shop.example";
    const parsed = parseSitemap(fixture("urlset.xml", origin), `${origin}/sitemap.xml`);
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
    const parsed = parseSitemap(fixture("index.xml", "https://a.example"), "https://a.example/index.xml");
    expect(parsed.kind).toBe("sitemapindex");
    expect(parsed.sitemaps).toHaveLength(5);
    expect(parsed.urls).toEqual([]);
  });

  test("rejects a document that is not a sitemap", () => {
    const parsed = parseSitemap("<html><body>hi</body></html>", "https://a.example/sitemap.xml");
    expect(parsed.kind).toBe("invalid");
    expect(parsed.issues[0]?.severity).toBe("error");
  });

  test("accepts a namespace prefix", () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.example/x</sm:loc></sm:url></sm:urlset>`;
    expect(parseSitemap(xml, "https://a.example/s.xml").urls).toEqual([{ loc: "https://a.example/x" }]);
  });
});

/** An RSS 2.0 feed as WordPress writes it (namespaces, CDATA, RFC 822 dates). */
const rss = (origin: string) => `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"
  xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom"
  xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
  <title>Example</title>
  <atom:link href="${origin}/feed/" rel="self" type="application/rss+xml" />
  <link>${origin}</link>
  <lastBuildDate>Tue, 10 Jun 2025 04:00:00 +0000</lastBuildDate>
  <item>
    <title>First post</title>
    <link>${origin}/blog/first-post/</link>
    <dc:creator><![CDATA[ann]]></dc:creator>
    <pubDate>Tue, 10 Jun 2025 04:00:00 +0000</pubDate>
    <guid isPermaLink="false">${origin}/?p=12</guid>
    <content:encoded><![CDATA[<p>Hello <a href="/x">x</a></p>]]></content:encoded>
  </item>
  <item>
    <title>Second</title>
    <link>${origin}/feeds-only</link>
    <pubDate>Mon, 09 Jun 2025 22:30:00 EST</pubDate>
  </item>
  <item><title>No link</title></item>
  <item><link>${origin}/bad-date</link><pubDate>yesterday</pubDate></item>
</channel>
</rss>`;

describe("other sitemap formats (sitemaps.org: RSS 2.0, Atom 1.0, text)", () => {
  const origin = "https://a.example";

  test("an RSS 2.0 feed: each item's link, pubDate as lastmod", () => {
    const parsed = parseSitemap(rss(origin), `${origin}/feed/`);
    expect(parsed.kind).toBe("rss");
    expect(parsed.urls).toEqual([
      { loc: `${origin}/blog/first-post/`, lastmod: "2025-06-10T04:00:00Z" },
      { loc: `${origin}/feeds-only`, lastmod: "2025-06-10T03:30:00Z" },
      { loc: `${origin}/bad-date` },
    ]);
    expect(parsed.issues.map((i) => [i.severity, i.message])).toEqual([
      ["error", "<item> 3 has no link."],
      ["warning", `The date "yesterday" of ${origin}/bad-date could not be read.`],
    ]);
  });

  test("an Atom 1.0 feed: the alternate link of each entry, resolved; updated as lastmod", () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Example</title>
  <link href="${origin}/atom.xml" rel="self"/>
  <updated>2025-06-10T04:00:00Z</updated>
  <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
  <entry>
    <title>One</title>
    <link rel="edit" href="${origin}/edit/1"/>
    <link rel="alternate" type="text/html" href="/posts/one"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <updated>2025-06-09T18:30:02+02:00</updated>
  </entry>
  <entry><title>Two</title><link href="https://a.example/posts/two"/><updated>2025-06-08</updated></entry>
  <entry><title>Elsewhere</title><link href="https://b.example/x"/></entry>
</feed>`;
    const parsed = parseSitemap(atom, `${origin}/atom.xml`);
    expect(parsed.kind).toBe("atom");
    expect(parsed.urls).toEqual([
      { loc: `${origin}/posts/one`, lastmod: "2025-06-09T18:30:02+02:00" },
      { loc: `${origin}/posts/two`, lastmod: "2025-06-08" },
      { loc: "https://b.example/x" },
    ]);
    expect(parsed.issues).toEqual([
      { sitemap: `${origin}/atom.xml`, severity: "warning", message: expect.stringMatching(/another host/) },
    ]);
  });

  test("a text sitemap: one URL per line, anything else reported by line", () => {
    const parsed = parseSitemap(
      `\uFEFF${origin}/a\n\n${origin}/b?x=1\r\n/relative\nhttp://a.example/c d\n`,
      `${origin}/sitemap.txt`,
    );
    expect(parsed.kind).toBe("text");
    expect(parsed.urls).toEqual([{ loc: `${origin}/a` }, { loc: `${origin}/b?x=1` }]);
    expect(parsed.issues.map((i) => i.message)).toEqual([
      "Lines 4, 5 are not an absolute http(s) URL; a text sitemap holds nothing else.",
    ]);
  });

  test("plain text with no URL is not a sitemap", () => {
    const parsed = parseSitemap("Not Found\n", `${origin}/sitemap.txt`);
    expect(parsed).toMatchObject({ kind: "invalid", urls: [] });
    expect(parsed.issues[0]).toMatchObject({
      severity: "error",
      message: expect.stringMatching(/^Not a sitemap/),
    });
  });
});

describe("findSitemaps", () => {
  test("reads a feed and a text sitemap named in robots.txt", async () => {
    const robots = parseRobotsTxt(`Sitemap: ${server.url}/feed/\nSitemap: ${server.url}/sitemap.txt\n`);
    const report = await findSitemaps(fetcher, server.url, { robots });
    expect(report.sources.map((s) => [s.url.replace(server.url, ""), s.kind, s.urlCount])).toEqual([
      ["/feed/", "rss", 3],
      ["/sitemap.txt", "text", 1],
    ]);
    expect(isUrlListed(report, `${server.url}/about`)).toBe(true);
    expect(isUrlListed(report, `${server.url}/blog/first-post`)).toBe(true);
  });

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
