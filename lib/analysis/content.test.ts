import { expect, test } from "vitest";
import { analyzeContent, countLinks, isSameSite } from "./content";
import { parsePage } from "./page";

const page = (body: string, lang = "en", url = "https://www.example.com/a") =>
  parsePage({ url, html: `<html lang="${lang}"><body>${body}</body></html>` });
const statuses = (body: string, lang?: string) =>
  Object.fromEntries(analyzeContent(page(body, lang)).checks.map((c) => [c.id, c.status]));

const plainSentence = "The cat sat on the mat and looked at the sun. ";

test("word count covers main content only: nav, scripts and styles are stripped", () => {
  const report = analyzeContent(
    page(
      `<nav>${"menu ".repeat(500)}</nav><main><p>one two three</p><script>${"x ".repeat(500)}</script><style>a{}</style></main>`,
    ),
  );
  expect(report.wordCount).toBe(3);
});

test("under 300 words is thin content and fails; 300 or more passes", () => {
  expect(statuses(`<main><p>${"word ".repeat(299)}</p></main>`)["content.word-count"]).toBe("fail");
  expect(statuses(`<main><p>${"word ".repeat(300)}</p></main>`)["content.word-count"]).toBe("pass");
});

test("readability: plain prose passes, dense prose fails, too little prose is not judged", () => {
  expect(statuses(`<main><p>${plainSentence.repeat(12)}</p></main>`)["content.readability"]).toBe("pass");
  const dense =
    "Comprehensive institutional methodologies necessitate interdisciplinary collaboration, facilitating organizational transformation. ";
  expect(statuses(`<main><p>${dense.repeat(12)}</p></main>`)["content.readability"]).toBe("fail");
  const short = analyzeContent(page("<main><p>Too short to judge.</p></main>")).checks.find(
    (c) => c.id === "content.readability",
  );
  expect(short?.status).toBe("pass");
  expect(short?.message).toMatch(/Too little running prose/);
});

test("readability is not scored on a non-English page", () => {
  const dense = "Die Umsetzung erfordert interdisziplinäre Zusammenarbeit und Organisationsentwicklung. ";
  const check = analyzeContent(page(`<main><p>${dense.repeat(20)}</p></main>`, "de")).checks.find(
    (c) => c.id === "content.readability",
  );
  expect(check?.status).toBe("pass");
  expect(check?.message).toMatch(/calibrated for English/);
});

test('images: missing alt fails; alt="" and presentation images are decorative, not missing', () => {
  const report = analyzeContent(
    page(
      '<img src="a.png"><img src="b.png" alt=""><img src="c.png" role="presentation"><img src="d.png" alt="Chart"><img src="e.png">',
    ),
  );
  expect(report.images).toEqual({ total: 5, withoutAlt: 2, decorative: 2 });
  const check = report.checks.find((c) => c.id === "content.image-alt");
  expect(check?.status).toBe("fail");
  expect(check?.evidence).toEqual(['<img src="a.png">', '<img src="e.png">']);
});

test("links are counted once each; www and fragments do not make a link external or new", () => {
  const links = countLinks(
    page(`
    <a href="/b">b</a><a href="/b#x">b again</a><a href="https://example.com/c">bare domain</a>
    <a href="https://other.org/" rel="nofollow">other</a><a href="https://other.org/">other again</a>
    <a href="mailto:a@b.c">mail</a><a href="#top">top</a><a href="javascript:void(0)">js</a><a href="/a">self</a>`),
  );
  expect(links).toEqual({ internal: 2, external: 1, nofollow: 1 });
  expect(statuses('<a href="https://other.org/">x</a>')["content.links"]).toBe("warn");
});

test("isSameSite ignores a leading www only", () => {
  expect(isSameSite(new URL("https://www.a.com/"), new URL("http://a.com/x"))).toBe(true);
  expect(isSameSite(new URL("https://blog.a.com/"), new URL("https://a.com/"))).toBe(false);
});
