import { expect, test } from "vitest";
import { extractBlocks, findMainRoot, textOf } from "./blocks";
import { parsePage } from "./page";

const page = (body: string) =>
  parsePage({ url: "https://example.com/", html: `<!doctype html><html><body>${body}</body></html>` });

test("<main> is the content root; site header, nav, footer and scripts are left out", () => {
  const p = page(`
    <header><nav><a href="/">Home</a></nav><p>Site banner</p></header>
    <main><h1>Title</h1><p>Hello <b>world</b>.<br>Next line</p><script>var x = 1;</script><style>p{}</style></main>
    <footer><p>Copyright</p></footer>`);
  expect(findMainRoot(p).selector).toBe("main");
  expect(extractBlocks(p)).toEqual([
    { kind: "heading", level: 1, text: "Title" },
    { kind: "paragraph", text: "Hello world. Next line" },
  ]);
});

test("falls back to a lone <article>, then to <body> without its page chrome", () => {
  expect(findMainRoot(page("<article><p>a</p></article>")).selector).toBe("article");
  const listing = page(
    `<header><p>Banner</p></header><article><header><h2>One</h2></header><p>a</p></article><article><p>b</p></article><aside><p>ads</p></aside><footer>f</footer>`,
  );
  expect(findMainRoot(listing).selector).toBe("body");
  // The article's own header stays (it holds its title); the site header, aside and footer go.
  expect(extractBlocks(listing).map((b) => b.text)).toEqual(["One", "a", "b"]);
});

test("loose text next to blocks becomes its own paragraph, in document order", () => {
  const p = page(`<main><div>Loose text <span>inline</span><p>para</p>tail</div></main>`);
  expect(extractBlocks(p)).toEqual([
    { kind: "paragraph", text: "Loose text inline" },
    { kind: "paragraph", text: "para" },
    { kind: "paragraph", text: "tail" },
  ]);
});

test("lists, nested lists, definition lists, quotes, details and tables keep their kinds", () => {
  const p = page(`<main>
    <ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>
    <dl><dt>Term</dt><dd>Meaning.</dd></dl>
    <blockquote><p>Quote one.</p><p>Quote two.</p></blockquote>
    <details><summary>Question?</summary><p>Answer.</p></details>
    <table><tr><th>H</th><td>C</td></tr></table>
    <pre>code()</pre></main>`);
  expect(extractBlocks(p).map((b) => `${b.kind}:${b.text}`)).toEqual([
    "list-item:one",
    "list-item:two",
    "list-item:nested",
    "term:Term",
    "definition:Meaning.",
    "quote:Quote one.",
    "quote:Quote two.",
    "summary:Question?",
    "paragraph:Answer.",
    "cell:H",
    "cell:C",
    "code:code()",
  ]);
});

test("hidden and aria-hidden elements are not content", () => {
  const p = page(`<main><p hidden>secret</p><div aria-hidden="true"><p>icon</p></div><p>shown</p></main>`);
  expect(extractBlocks(p).map((b) => b.text)).toEqual(["shown"]);
});

test("textOf puts spaces between blocks and decodes entities", () => {
  const p = page(`<div id="x"><p>a&amp;b</p><p>c</p>d<br>e<script>no</script></div>`);
  expect(textOf(p.$("#x").get(0)!)).toBe("a&b c d e");
});
