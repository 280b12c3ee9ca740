import { expect, test } from "vitest";
import { extractPage, shorten } from "./extract-page";

const html = `<!doctype html>
<html lang="de-DE">
<head>
  <title>  Preise |
    Beispiel GmbH </title>
  <meta name="Description" content="Alle Tarife im Überblick.">
  <meta property="og:site_name" content="Beispiel">
  <meta property="og:type" content="Product">
  <meta name="robots" content="index, follow">
  <link rel="alternate canonical" href="/preise">
  <base href="https://beispiel.example/de/">
</head>
<body>
  <header><h1>Site header</h1><nav><a href="/">Start</a><p>Navigation paragraph that is long enough to count as text.</p></nav></header>
  <main>
    <h1>Preise</h1>
    <p>Kurz.</p>
    <p>Unsere Tarife   beginnen bei null Euro und wachsen mit Ihrem Team, ohne versteckte Kosten.</p>
    <h2>Tarife</h2>
    <h3>Team</h3>
    <h4>Not kept</h4>
    <a href="team#details">Team</a>
    <a href="team">Team again</a>
    <a href="https://other.example/x" rel="nofollow">Sponsored</a>
    <a href="mailto:a@b.example">Mail</a>
    <a href="javascript:void(0)">JS</a>
  </main>
</body>
</html>`;

test("extracts the facts a crawler keeps", () => {
  const facts = extractPage(html, "https://beispiel.example/de/preise");
  expect(facts).toEqual({
    title: "Preise | Beispiel GmbH",
    metaDescription: "Alle Tarife im Überblick.",
    siteName: "Beispiel",
    ogType: "product",
    headings: [
      { level: 1, text: "Site header" },
      { level: 1, text: "Preise" },
      { level: 2, text: "Tarife" },
      { level: 3, text: "Team" },
    ],
    canonical: "https://beispiel.example/preise",
    summary: "Unsere Tarife beginnen bei null Euro und wachsen mit Ihrem Team, ohne versteckte Kosten.",
    wordCount: expect.any(Number),
    lang: "de-DE",
    noindex: false,
    links: ["https://beispiel.example/", "https://beispiel.example/de/team"],
  });
  expect(facts.wordCount).toBeGreaterThan(15);
});

test("reads noindex and tolerates a bare page", () => {
  const facts = extractPage('<meta name="robots" content="NOINDEX"><p>hi</p>', "https://a.example/");
  expect(facts.noindex).toBe(true);
  expect(facts.title).toBeNull();
  expect(facts.summary).toBeNull();
  expect(facts.canonical).toBeNull();
  expect(facts.lang).toBeNull();
});

test("shorten cuts at a word boundary", () => {
  expect(shorten("short", 10)).toBe("short");
  expect(shorten("one two three four five six", 15)).toBe("one two three…");
});
