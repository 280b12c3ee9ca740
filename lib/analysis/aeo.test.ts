import { expect, test } from "vitest";
import { analyzeAeoPage } from "./aeo";
import { parsePage } from "./page";
import { analyzeStructuredData } from "./structured-data/analyze";

function aeo(head: string, body: string) {
  const page = parsePage({
    url: "https://example.com/guide",
    html: `<html lang="en"><head>${head}</head><body>${body}</body></html>`,
  });
  return analyzeAeoPage(page, analyzeStructuredData(page));
}
const statuses = (r: ReturnType<typeof aeo>) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));
const words = (n: number) => `${Array.from({ length: n }, (_, i) => `word${i}`).join(" ")}.`;

const FAQ_LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[{"@type":"Question","name":"What is caching?","acceptedAnswer":{"@type":"Answer","text":"Keeping copies."}}]}</script>`;
const ORG_LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme","sameAs":["https://www.wikidata.org/wiki/Q1"]}</script>`;

test("a page built for answer engines passes every page-level AEO check", () => {
  const report = aeo(
    `${FAQ_LD}${ORG_LD}<meta name="author" content="Ann Lee">`,
    `<nav><a href="/about-us">About us</a></nav><main><h1>Caching</h1>
     <h2>What is caching?</h2><p>${words(45)}</p>
     <h2>How do I enable caching</h2><p>${words(55)}</p></main>`,
  );
  expect(statuses(report)).toEqual({
    "aeo.question-headings": "pass",
    "aeo.concise-answers": "pass",
    "aeo.faq-schema": "pass",
    "aeo.entity": "pass",
    "aeo.about-link": "pass",
    "aeo.author": "pass",
  });
  expect(report.questions).toEqual([
    { question: "What is caching?", answerWords: 45, concise: true },
    { question: "How do I enable caching", answerWords: 55, concise: true },
  ]);
});

test("a page with nothing for answer engines warns on each check", () => {
  expect(statuses(aeo("", "<main><h1>Welcome</h1><h2>Our services</h2><p>Text.</p></main>"))).toEqual({
    "aeo.question-headings": "warn",
    "aeo.concise-answers": "warn",
    "aeo.faq-schema": "warn",
    "aeo.entity": "warn",
    "aeo.about-link": "warn",
    "aeo.author": "warn",
  });
});

test("answers outside 40–60 words are counted; fewer than half concise is a warning", () => {
  const report = aeo(
    "",
    `<h2>Why cache?</h2><p>${words(20)}</p><h2>When to purge?</h2><p>${words(90)}</p><h2>Where do caches live?</h2><p>${words(50)}</p>`,
  );
  expect(report.questions.map((q) => q.answerWords)).toEqual([20, 90, 50]);
  const check = report.checks.find((c) => c.id === "aeo.concise-answers")!;
  expect(check.status).toBe("warn");
  expect(check.message).toMatch(/Only 1 of 3/);
});

test("question headings are recognised by a question mark or an interrogative opener, not by statements", () => {
  const report = aeo(
    "",
    "<h2>Pricing</h2><h2>How to reset a password</h2><h2>Is it free?</h2><h2>Who we are.</h2><h2>What</h2>",
  );
  expect(report.questions.map((q) => q.question)).toEqual(["How to reset a password", "Is it free?"]);
});

test("FAQ markup that is present but broken fails", () => {
  const broken = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Q?"}]}</script>`;
  const check = aeo(broken, "<h2>Q?</h2><p>A.</p>").checks.find((c) => c.id === "aeo.faq-schema")!;
  expect(check.status).toBe("fail");
  expect(check.evidence).toEqual([
    "Question at json-ld[0] > mainEntity[0]: missing acceptedAnswer or suggestedAnswer",
  ]);
});

test("an Organization without sameAs is a warning naming the entity", () => {
  const org = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme"}</script>`;
  const check = aeo(org, "").checks.find((c) => c.id === "aeo.entity")!;
  expect(check.status).toBe("warn");
  expect(check.evidence).toEqual(["Acme"]);
});

test("author signals: byline text, rel=author and structured data author all count", () => {
  const status = (head: string, body: string) =>
    aeo(head, body).checks.find((c) => c.id === "aeo.author")!.status;
  expect(status("", "<article><h1>T</h1><p>By Jane Smith</p><p>Text.</p></article>")).toBe("pass");
  expect(status("", '<a rel="author" href="/ann">Ann</a>')).toBe("pass");
  expect(
    status(
      `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"H","author":{"@type":"Person","name":"Ann"}}</script>`,
      "",
    ),
  ).toBe("pass");
  expect(status("", "<p>by the way, nothing here</p>")).toBe("warn");
});
