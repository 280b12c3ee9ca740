import { afterAll, beforeAll, expect, test } from "vitest";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { toolContext } from "@/test/support/fixtures";
import { runner as seoRunner } from "../seo-aeo-geo-audit/run";
import { seoAeoGeoResult } from "../seo-aeo-geo-audit/schema";
import { auditResult } from "../shared/audit-schema";
import type { ToolContext } from "../types";
import { runner } from "./run";

let site: FixtureServer;
const ctx: ToolContext = toolContext();

beforeAll(async () => {
  site = await startFixtureServer({
    routes: {
      "/": (req, res) => {
        if (/ChatGPT-User/.test(req.headers["user-agent"] ?? "")) {
          res.writeHead(429, { "content-type": "text/plain", "retry-after": "3600" });
          res.end("Too many requests");
          return;
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "x-robots-tag": "noai" });
        res.end(
          '<html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1><a href="/blog/x">Blog</a></body></html>',
        );
      },
      "/robots.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("User-agent: PerplexityBot\nDisallow: /blog/\n\nUser-agent: *\nAllow: /\n");
      },
      "/llms.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<!doctype html><html><body>Page not found</body></html>");
      },
    },
  });
});
afterAll(async () => site.close());

test("the URL audit carries the AI access matrix with each block named", async () => {
  const result = auditResult.parse(await runner.run({ url: `${site.url}/` }, ctx));
  const row = (t: string) => result.aiAccess.rows.find((r) => r.token === t)!;
  expect(result.input).toEqual({ url: `${site.url}/` });
  expect(row("ChatGPT-User").status).toBe("blocked");
  expect(row("PerplexityBot").status).toBe("partly");
  expect(row("GPTBot").by.join("\n")).toMatch(/X-Robots-Tag: noai/);
  expect(result.aiAccess.llmsTxt).toMatchObject({ present: false, servedAs: "html" });
  const said = result.aiAccess.contradictions.map((c) => c.message);
  expect(said).toContain("ChatGPT-User is blocked, so ChatGPT cannot read pages a user asks about");
  expect(
    said.some((m) => m.startsWith("robots.txt allows ChatGPT-User but the server answers it HTTP 429")),
  ).toBe(true);
});

test("the SEO/AEO/GEO audit carries the same matrix", async () => {
  const result = seoAeoGeoResult.parse(await seoRunner.run({ url: `${site.url}/` }, ctx));
  expect(result.aiAccess.rows.find((r) => r.token === "ChatGPT-User")?.status).toBe("blocked");
  expect(result.input).toEqual({ url: `${site.url}/` });
});
