import { describe, expect, test } from "vitest";
import { ToolError } from "@/lib/errors";
import { HTML_LIMITS, loadHtml, loadHtmlCounted, openElementDepth, PAGE_TOO_COMPLEX } from "./bounded-html";

const MB = 1024 * 1024;
/** `unit` repeated to about `bytes`. */
const repeat = (unit: string, bytes = MB) => unit.repeat(Math.ceil(bytes / unit.length));

// Hostile pages of about 1 MB each (2.4 MB for the flood): unclosed nesting of every kind and misnested
// formatting that the parser's adoption agency keeps re-opening (parse5 takes time quadratic in the depth
// either builds), and more elements than a page needs.
const HOSTILE: [string, string][] = [
  ["unclosed <div>s", `<!doctype html><html><body>${repeat("<div>")}`],
  ["unclosed <div><span><b><i>", `<body>${repeat("<div><span><b><i>")}`],
  ["unclosed <section><article> with text", repeat("<section>a<article>b")],
  ["unclosed <div> inside a table", `<table><tr><td>${repeat("<div>")}`],
  ["misnested <a><b>x</a>", repeat("<a><b>x</a>")],
  ["a flood of 300,000 elements", repeat("<i>x</i>", 300_000 * 8)],
  ["unclosed <ul><li>", repeat("<ul><li>x")],
  ["unclosed <blockquote>", repeat("<blockquote>")],
];

describe("hostile markup fails fast with PAGE_TOO_COMPLEX", () => {
  for (const [name, html] of HOSTILE) {
    test(`${name} (${Math.round(html.length / 1024)} KB)`, () => {
      const started = performance.now();
      let error: unknown;
      try {
        loadHtml(html);
      } catch (err) {
        error = err;
      }
      const ms = performance.now() - started;
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe(PAGE_TOO_COMPLEX);
      expect((error as ToolError).message).toMatch(/too complex to analyse/);
      // Well under a second (parse5 alone takes tens of seconds on these).
      expect(ms).toBeLessThan(750);
    });
  }
});

/** An ordinary but large page: a deep layout, long article, sloppy lists and tables, scripts with tags in them. */
function ordinaryPage(paragraphs: number): string {
  const layout = Array.from({ length: 40 }, (_, i) => `<div class="l${i}">`).join("");
  const close = "</div>".repeat(40);
  const body: string[] = [];
  for (let i = 0; i < paragraphs; i++) {
    body.push(
      `<p>Paragraph ${i} with <a href="/p/${i}">a link</a>, <b>bold <i>and italic</i></b> text and an <img src="/i/${i}.png" alt="">`,
    );
    if (i % 50 === 0) body.push(`<ul>${"<li>item <span>one</span>".repeat(10)}</ul>`);
    if (i % 200 === 0) body.push(`<table>${"<tr><td>a<td>b<td><div>c</div>".repeat(20)}</table>`);
    if (i % 500 === 0) body.push(`<script>var s = "<div><div><div>"; if (a < b) {}</script>`);
  }
  return `<!doctype html><html><head><title>Big</title></head><body>${layout}<main>${body.join("\n")}</main>${close}</body></html>`;
}

describe("ordinary pages parse as before", () => {
  test("a 2.7 MB page with 20,000 paragraphs, unclosed <p>, <li> and <td>, 40 levels of layout", () => {
    const html = ordinaryPage(20_000);
    expect(html.length).toBeGreaterThan(2.5 * MB);
    const { $, steps } = loadHtmlCounted(html);
    expect($("p").length).toBe(20_000);
    expect($("a").length).toBe(20_000);
    expect($("title").text()).toBe("Big");
    // Far from the step budget: an ordinary page never nears it.
    expect(steps).toBeLessThan(HTML_LIMITS.maxSteps / 4);
  });

  test("the depth scan ignores optional end tags, void elements, comments and script text", () => {
    expect(openElementDepth(ordinaryPage(500))).toBeLessThan(60);
    expect(openElementDepth("<div><p>a<p>b<li>c<br><img><!-- <div><div> --></div>")).toBe(1);
    expect(openElementDepth("<div><span></div><div><span></div>")).toBe(2);
    expect(openElementDepth("<script><div><div></script><div>")).toBe(1);
    expect(openElementDepth("</div></span><div>")).toBe(1);
    expect(openElementDepth(repeat("<div>", 10_000))).toBe(2_000);
  });

  test("a page just inside the depth limit parses", () => {
    const depth = HTML_LIMITS.maxDepth - 24;
    const html = `${"<div>".repeat(depth)}deep${"</div>".repeat(depth)}`;
    expect(loadHtml(html)("div").length).toBe(depth);
  });
});
