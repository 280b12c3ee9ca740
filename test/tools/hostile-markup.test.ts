import { afterAll, beforeAll, expect, test } from "vitest";
import { PAGE_TOO_COMPLEX } from "@/lib/analysis/bounded-html";
import { ToolError } from "@/lib/errors";
import { runner as auditRunner } from "@/lib/tools/audits/run";
import { runner as faqRunner } from "@/lib/tools/faq-generator/run";
import { runner as llmsTxtRunner } from "@/lib/tools/llms-txt/run";
import type { ToolContext } from "@/lib/tools/types";
import { toolContext } from "@/test/support/fixtures";
import { type FixtureServer, startFixtureServer } from "../fixture-server";

// The tools that parse a customer's page end a page of hostile markup (a megabyte of unclosed nested tags)
// as a failed job with PAGE_TOO_COMPLEX (refunded like every failure) in well under a second of parsing.
let site: FixtureServer;
const hostile = `<!doctype html><html><head><title>x</title></head><body>${"<div>".repeat(200_000)}`;

beforeAll(async () => {
  const html = (body: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  };
  site = await startFixtureServer({
    routes: {
      "/": html(hostile),
      "/robots.txt": (_req, res) => {
        res.writeHead(404).end();
      },
    },
  });
});
afterAll(() => site?.close());

const ctx = (): ToolContext => toolContext();

for (const [name, run] of [
  ["audits", (url: string) => auditRunner.run({ url }, ctx())],
  ["faq-generator", (url: string) => faqRunner.run({ url }, ctx())],
  ["llms-txt", (url: string) => llmsTxtRunner.run({ url }, ctx())],
] as const) {
  test(`${name}: a megabyte of unclosed <div>s fails with PAGE_TOO_COMPLEX, fast`, async () => {
    const started = performance.now();
    const error = await run(`${site.url}/`).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe(PAGE_TOO_COMPLEX);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
}
