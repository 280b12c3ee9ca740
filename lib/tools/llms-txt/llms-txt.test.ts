import { afterEach, describe, expect, test } from "vitest";
import { createGuardedFetch, type Resolver } from "@/lib/fetch/guarded-fetch";
import type { GuardedFetch } from "@/lib/fetch/types";
import { parseLlmsTxt } from "@/lib/seo/llms-txt";
import { type FixtureHandler, type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { buildFixtureSite, type FixtureSiteOptions } from "@/test/fixtures/generated-site";
import { toolContext } from "@/test/support/fixtures";
import { ToolError } from "../types";
import { llmsTxt as definition } from "./definition";
import { runner } from "./run";

const llmsTxt = { ...definition, ...runner };

const local = createGuardedFetch({ allowPrivateTargets: "loopback" });
const servers: FixtureServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(routes: Record<string, FixtureHandler>) {
  const server = await startFixtureServer({ routes });
  servers.push(server);
  return server;
}

function run(url: string, fetch: GuardedFetch = local) {
  const input = llmsTxt.input.parse({ url });
  return llmsTxt.run(input, toolContext({ fetch }));
}

async function startSite(options: FixtureSiteOptions = {}) {
  const offHost = await serve({ "/status": (_req, res) => void res.end("up") });
  const site = buildFixtureSite({ ...options, offHostUrl: `http://localhost:${offHost.port}/status` });
  return { site, server: await serve(site.routes), offHost };
}

describe.each([
  { discovery: "sitemap", sitemap: true },
  { discovery: "links", sitemap: false },
])("llms-txt on the generated 50-page site ($discovery)", ({ discovery, sitemap }) => {
  test("lists exactly the planted pages, each in its section", async () => {
    const { site, server, offHost } = await startSite({ sitemap });
    const result = await run(`${server.url}/`);

    expect(llmsTxt.result.parse(result)).toEqual(result);
    expect(result.discovery).toBe(discovery);
    expect(result.source).toBe("extractive");
    expect(result.pagesCrawled).toBe(50);
    expect(result.title).toBe(site.siteName);
    expect(result.summary).toBe(site.tagline);

    const listed = result.sections.flatMap((s) => s.links.map((l) => ({ section: s.title, ...l })));
    const planted = site.pages.filter((p) => p.kind !== "home");
    expect(listed).toHaveLength(planted.length);
    expect(new Set(result.pagesUsed)).toEqual(new Set(planted.map((p) => `${server.url}${p.path}`)));
    for (const page of planted) {
      expect(listed).toContainEqual({
        section: page.section,
        title: page.title,
        url: `${server.url}${page.path}`,
        notes: page.description,
      });
    }
    expect(result.sections.map((s) => s.title)).toEqual([
      "Docs",
      "Products",
      "Blog",
      "Case Studies",
      "Company",
      "Optional",
    ]);

    // robots.txt disallows /private/ (listed in the sitemap and linked from every page).
    expect(server.requests).not.toContain("/private/admin");
    expect(result.llmsTxt).not.toContain("/private/admin");
    expect(result.warnings).toContain(
      "1 URL(s) are disallowed by robots.txt for our crawler and were not read.",
    );
    // Every page links to a status page on another host.
    expect(offHost.requests).toEqual([]);
  });

  test("the file validates and matches the structured result", async () => {
    const { server } = await startSite({ sitemap });
    const result = await run(`${server.url}/`);
    const parsed = parseLlmsTxt(result.llmsTxt);
    expect(parsed.issues).toEqual([]);
    expect(parsed.valid).toBe(true);
    expect(parsed.model?.title).toBe(result.title);
    expect(parsed.model?.summary).toBe(result.summary);
    expect(parsed.model?.sections).toEqual(
      result.sections.map((s) => ({
        title: s.title,
        links: s.links.map((l) => ({ title: l.title, url: l.url, ...(l.notes ? { notes: l.notes } : {}) })),
      })),
    );
    expect(result.llmsTxt.startsWith("# Northwind Cloud\n\n> Northwind Cloud is a managed platform")).toBe(
      true,
    );
  });
});

describe("llms-txt failures carry the fetcher's code", () => {
  test("a private target is TARGET_FORBIDDEN", async () => {
    const resolver: Resolver = async () => [{ address: "192.168.0.10", family: 4 }];
    const err = await run("http://router.test/", createGuardedFetch({ resolver })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err).toMatchObject({ code: "TARGET_FORBIDDEN" });
  });

  test("a closed port is CONNECT_ERROR", async () => {
    const closed = await startFixtureServer({});
    await closed.close();
    await expect(run(`${closed.url}/`)).rejects.toMatchObject({ code: "CONNECT_ERROR" });
  });

  test("a homepage that never answers is FETCH_TIMEOUT", async () => {
    const server = await serve({ "/": () => {}, "/robots.txt": (_req, res) => void res.end("") });
    const slowFetch: GuardedFetch = (url, options) => local(url, { ...options, timeoutMs: 300 });
    await expect(run(`${server.url}/`, slowFetch)).rejects.toMatchObject({ code: "FETCH_TIMEOUT" });
  });

  test("a 404 homepage is HTTP_ERROR", async () => {
    const server = await serve({});
    await expect(run(`${server.url}/`)).rejects.toMatchObject({ code: "HTTP_ERROR" });
  });

  test("a non-HTML start URL is NOT_HTML", async () => {
    const server = await serve({ "/data.json": (_req, res) => void res.end("{}") });
    await expect(run(`${server.url}/data.json`)).rejects.toMatchObject({ code: "NOT_HTML" });
  });

  test("a site whose robots.txt shuts us out is ROBOTS_DISALLOWED", async () => {
    const server = await serve({
      "/robots.txt": (_req, res) => void res.end("User-agent: *\nDisallow: /\n"),
    });
    await expect(run(`${server.url}/`)).rejects.toMatchObject({ code: "ROBOTS_DISALLOWED" });
    expect(server.requests).toEqual(["/robots.txt"]);
  });
});

describe("llms-txt input", () => {
  const bad: { name: string; body: unknown }[] = [
    { name: "missing url", body: {} },
    { name: "ftp URL", body: { url: "ftp://example.com/" } },
    { name: "file URL", body: { url: "file:///etc/passwd" } },
    { name: "relative URL", body: { url: "/about" } },
    { name: "not a string", body: { url: 42 } },
    { name: "over 2048 characters", body: { url: `https://example.com/${"a".repeat(2040)}` } },
    { name: "unknown field", body: { url: "https://example.com/", depth: 3 } },
  ];
  for (const c of bad) {
    test(`rejects ${c.name}`, () => {
      expect(llmsTxt.input.safeParse(c.body).success).toBe(false);
    });
  }

  test("accepts an http(s) URL and costs 20 credits", () => {
    const input = llmsTxt.input.parse({ url: "https://example.com/docs" });
    expect(input).toEqual({ url: "https://example.com/docs" });
    expect(llmsTxt.cost(input)).toBe(20);
    expect(llmsTxt.name).toBe("llms-txt");
  });
});
