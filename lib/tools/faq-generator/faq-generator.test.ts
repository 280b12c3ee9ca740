import { beforeAll, describe, expect } from "vitest";
import { parsePage } from "@/lib/analysis/page";
import { analyzeStructuredData, findTypedNodes, readText } from "@/lib/analysis/structured-data/analyze";
import { countWords, normalizeSpace } from "@/lib/analysis/text";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { toolFailure, toolTest } from "@/test/support/fixtures";
import type { ToolContext } from "../types";
import { composeAnswer } from "./answers";
import { faqGenerator as definition } from "./definition";
import { deduplicate } from "./extract-pairs";
import { buildFaqJsonLd, renderJsonLdScript, runner } from "./run";

const faqGenerator = { ...definition, ...runner };

import { type FaqGeneratorResult, faqGeneratorResult } from "./schema";

let site: FixtureServer;
let ctx: ToolContext;

const test = toolTest;
test.beforeAll(({ site: _site, ctx: _ctx }) => {
  site = _site;
  ctx = _ctx;
});

const generate = async (url: string) => faqGeneratorResult.parse(await faqGenerator.run({ url }, ctx));

const failure = (url: string) => toolFailure(faqGenerator.run({ url }, ctx));

describe("faq.html", () => {
  let result: FaqGeneratorResult;
  let pageText: string;
  beforeAll(async () => {
    result = await generate(`${site.url}/faq.html`);
    const res = await ctx.fetch(`${site.url}/faq.html`);
    const page = parsePage({ url: res.finalUrl, html: res.text() });
    // Everything a faithful answer may quote: the visible text and the page's own FAQ answers.
    const schemaAnswers = findTypedNodes(analyzeStructuredData(page).entities, "Answer").map((a) =>
      readText(a.text),
    );
    pageText = normalizeSpace(`${page.$("body").text()} ${schemaAnswers.join(" ")}`);
  });

  test("finds exactly the planted pairs, most explicit source first", () => {
    expect(result.pairs.map((p) => [p.source, p.question])).toEqual([
      ["faq-schema", "How long does cold brew keep in the fridge?"],
      ["faq-schema", "Is cold brew stronger than hot coffee?"],
      ["details", "Can I use any coffee beans for cold brew?"],
      ["details", "Should I heat cold brew before drinking it?"],
      ["definition-list", "What grind size is best for cold brew?"],
      ["definition-list", "How much coffee should I use per litre of water?"],
      ["heading", "How long should cold brew steep?"],
      ["heading", "What is the best way to strain cold brew?"],
      ["definition", "What is a French press?"],
      ["definition", "What is Nitro cold brew?"],
    ]);
    expect(result.count).toBe(10);
  });

  test("planted traps are skipped: the duplicate accordion, a non-question summary, a list answer, a pronoun definition", () => {
    const questions = result.pairs.map((p) => p.question);
    expect(questions.filter((q) => q.startsWith("How long does cold brew keep"))).toHaveLength(1);
    expect(questions).not.toContain("Shipping details?");
    expect(questions).not.toContain("Why does my cold brew taste sour?");
    expect(result.pairs.some((p) => p.answer.startsWith("It is a simple method"))).toBe(false);
  });

  test("answers are the page's own whole sentences, markup stripped", () => {
    for (const pair of result.pairs) {
      expect(pair.answer).toMatch(/[.!?]$/);
      expect(pageText).toContain(pair.answer);
      expect(countWords(pair.answer)).toBeLessThanOrEqual(120);
    }
    expect(result.pairs[0]?.answer).toBe(
      "Cold brew concentrate keeps for up to two weeks in a sealed jar in the fridge. Once you dilute it with water or milk, drink it within two or three days for the best taste.",
    );
    expect(result.pairs[8]?.answer).toBe(
      "A French press is a glass or steel jug with a plunger and a mesh filter that presses the grounds to the bottom.",
    );
  });

  test("the JSON-LD and the embeddable script validate as FAQPage → Question → Answer", () => {
    expect(result.jsonLd.mainEntity).toHaveLength(10);
    const embedded = parsePage({
      url: "https://example.com/",
      html: `<html><head>${result.html}</head><body></body></html>`,
    });
    const report = analyzeStructuredData(embedded);
    expect(report.malformed).toEqual([]);
    expect(report.types).toEqual(["FAQPage"]);
    expect(report.items.map((i) => i.type)).toEqual([
      "FAQPage",
      ...Array.from({ length: 10 }, () => ["Question", "Answer"]).flat(),
    ]);
    expect(report.items.every((i) => i.missingRequired.length === 0 && i.errors.length === 0)).toBe(true);
    expect(Object.fromEntries(report.checks.map((c) => [c.id, c.status]))).toMatchObject({
      "structured-data.json-ld-syntax": "pass",
      "structured-data.context": "pass",
      "structured-data.required": "pass",
    });
    // The only "</" is the element's own closing tag.
    expect(result.html.indexOf("</")).toBe(result.html.lastIndexOf("</script>"));
  });
});

test.each([
  ["/thin-faq.html", /holds 4 question\/answer pairs/],
  ["/good.html", /holds 3 question\/answer pairs/],
])("%s has too little for 8 pairs: INSUFFICIENT_CONTENT, never padded", async (path, message) => {
  const err = await failure(`${site.url}${path}`);
  expect(err.code).toBe("INSUFFICIENT_CONTENT");
  expect(err.message).toMatch(message);
});

test("fetch failures and error pages fail with the fetcher's code or HTTP_ERROR", async () => {
  expect((await failure(`${site.url}/server-error`)).code).toBe("HTTP_ERROR");
  expect((await failure(`${site.url}/report.pdf`)).code).toBe("NOT_HTML");
});

test("more than 10 grounded pairs are capped at 10, keeping page order within a source", async () => {
  const sections = Array.from(
    { length: 14 },
    (_, i) =>
      `<h2>How do I complete setup step ${i + 1} for module ${String.fromCharCode(65 + i)}?</h2><p>Open the settings page for module ${String.fromCharCode(65 + i)} and choose option ${i + 1}. Save the form and wait for the green confirmation banner before you continue.</p>`,
  ).join("");
  const server = await startFixtureServer({
    routes: {
      "/many": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(`<html lang="en"><body><main><h1>Setup</h1>${sections}</main></body></html>`);
      },
    },
  });
  try {
    const result = await generate(`${server.url}/many`);
    expect(result.count).toBe(10);
    expect(result.pairs.map((p) => p.question.match(/step (\d+)/)?.[1])).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
      "9",
      "10",
    ]);
    expect(result.pairs.every((p) => p.source === "heading")).toBe(true);
  } finally {
    await server.close();
  }
});

describe("composeAnswer", () => {
  // An n-word sentence opening with a capital, so the splitter sees a sentence start.
  const sentence = (n: number, tag: string) =>
    `${tag.toUpperCase()} ${Array.from({ length: n - 2 }, () => tag).join(" ")} end.`;

  test("takes whole sentences until about 40 words, never cutting one", () => {
    const answer = composeAnswer([`${sentence(25, "a")} ${sentence(20, "b")} ${sentence(10, "c")}`]);
    expect(answer).toBe(`${sentence(25, "a")} ${sentence(20, "b")}`);
  });

  test("stops before a sentence that would pass 90 words", () => {
    expect(composeAnswer([`${sentence(30, "a")} ${sentence(70, "b")}`])).toBe(sentence(30, "a"));
  });

  test("drops a trailing list introduction, references elsewhere, fragments and run-ons", () => {
    expect(composeAnswer(["Brew it cold for twelve hours. You will need:"])).toBe(
      "Brew it cold for twelve hours.",
    );
    expect(composeAnswer(["As mentioned above, the grind should be coarse for this."])).toBeUndefined();
    expect(composeAnswer(["Too short."])).toBeUndefined();
    expect(composeAnswer(["A heading without a full stop but long enough to count"])).toBeUndefined();
    expect(composeAnswer([sentence(140, "x")])).toBeUndefined();
  });
});

test("deduplicate keeps the first of near-identical questions or overlapping answers", () => {
  const pairs = deduplicate([
    { question: "How long does cold brew keep?", answer: "Two weeks in the fridge.", source: "faq-schema" },
    { question: "How long does cold brew keep in a fridge?", answer: "About two weeks.", source: "details" },
    { question: "What is storage life?", answer: "Two weeks in the fridge.", source: "heading" },
    { question: "What grind should I use?", answer: "A coarse grind.", source: "heading" },
  ]);
  expect(pairs.map((p) => p.source)).toEqual(["faq-schema", "heading"]);
});

test("renderJsonLdScript escapes markup so page text cannot close the script", () => {
  const jsonLd = buildFaqJsonLd([
    {
      question: "Is </script><script>alert(1)</script> safe?",
      answer: "Yes <!-- really --> it is.",
      source: "heading",
    },
  ]);
  const html = renderJsonLdScript(jsonLd);
  expect(html.match(/<\/script>/g)).toHaveLength(1);
  expect(html).not.toContain("<!--");
  const json = html.replace(/^<script type="application\/ld\+json">\n/, "").replace(/\n<\/script>$/, "");
  expect(JSON.parse(json)).toEqual(jsonLd);
});
