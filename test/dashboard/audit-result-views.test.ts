// The audit result views, rendered to HTML as the server sends them: checks in words, the two run buttons,
// the AI access matrix.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, vi } from "vitest";
import { ResultView } from "@/components/results/result-view";
import { runner as auditRunner } from "@/lib/tools/audits/run";
import { runner as seoRunner } from "@/lib/tools/seo-aeo-geo-audit/run";
import type { ToolContext } from "@/lib/tools/types";
import type { FixtureServer } from "@/test/fixture-server";
import { toolTest } from "@/test/support/fixtures";

// The job page's route parameter, as the dashboard's /dashboard/jobs/[jobId] page provides it.
vi.mock("next/navigation", () => ({ useParams: () => ({ jobId: "00000000-0000-4000-8000-000000000001" }) }));

let server: FixtureServer;
let ctx: ToolContext;
const test = toolTest;
test.beforeAll(({ site: _site, ctx: _ctx }) => {
  server = _site;
  ctx = _ctx;
});

const render = (tool: string, result: unknown) =>
  renderToStaticMarkup(createElement(ResultView, { tool, result }));

describe("audit result views", () => {
  test("the URL audit: every check titled in words with its status, severity for the failing ones, both buttons, the AI access matrix", async () => {
    const result = await auditRunner.run({ url: `${server.url}/bad.html` }, ctx);
    const html = render("audits", result);
    expect(html).toContain("Run again");
    expect(html).toContain("Compare with the previous run");
    expect(html).toContain("AI access by operator and purpose");
    for (const c of result.checks) {
      const item =
        html.match(new RegExp(`<li[^>]*data-check="${c.id.replace(".", "\\.")}"[\\s\\S]*?</h4>`))?.[0] ?? "";
      expect(item, c.id).toContain(
        `>${c.title.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</h4>`,
      );
      expect(c.title, c.id).not.toBe(c.id);
    }
    const failing = result.checks.find((c) => c.status === "fail")!;
    expect(html).toMatch(
      new RegExp(
        `data-check="${failing.id.replace(".", "\\.")}"[\\s\\S]*?Failed</span><span[^>]*>${failing.severity}</span>`,
      ),
    );
    // Categories are named in words.
    expect(html).toContain(">Structured data</th>");
    expect(html).not.toContain(">structured-data</th>");
  });

  test("the SEO/AEO/GEO audit shows the buttons and the matrix; a passed check reads as passed", async () => {
    const result = await seoRunner.run({ url: `${server.url}/good.html` }, ctx);
    const html = render("seo-aeo-geo-audit", result);
    expect(html).toContain("Run again");
    expect(html).toContain("AI access by operator and purpose");
    const passed = result.seo.keyChecks.find((c) => c.status === "pass")!;
    expect(html).toMatch(
      new RegExp(
        `data-check="${passed.id.replace(".", "\\.")}"[\\s\\S]*?<span class="text-xs text-slate-700">Passed</span><code`,
      ),
    );
  });
});

test("a generated FAQ shows the sentences each answer rests on and who wrote it", () => {
  const html = render("faq-generator", {
    method: { kind: "generated", engine: "ChatGPT", model: "gpt-x", unsupportedDropped: 2, note: null },
    url: "https://example.com/",
    finalUrl: "https://example.com/",
    count: 1,
    pairs: [
      {
        question: "How long does delivery take?",
        answer: "Orders ship within two working days.",
        source: "generated",
        supportingSentences: ["Orders ship within two working days."],
      },
    ],
    jsonLd: { "@context": "https://schema.org", "@type": "FAQPage", mainEntity: [] },
    html: "<script></script>",
  });
  expect(html).toContain("written by ChatGPT from the page&#x27;s own sentences");
  expect(html).toContain("2 answers the page could not support were left out");
  expect(html).toContain("<li>“Orders ship within two working days.”</li>");
});
