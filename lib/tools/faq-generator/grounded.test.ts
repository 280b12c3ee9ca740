import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parsePage } from "@/lib/analysis/page";
import { normalizeSpace } from "@/lib/analysis/text";
import { FAKE_ANTHROPIC_KEY, startFakeAnthropic } from "@/test/fakes/ai/anthropic";
import { FAKE_OPENAI_KEY } from "@/test/fakes/ai/openai";
import { type StructuredRequestBody, startFakeOpenAiStructured } from "@/test/fakes/ai/openai-structured";
import type { FakeProvider } from "@/test/fakes/ai/server";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import { FAQ_PAGES } from "@/test/fixtures/faq-pages/pages";
import { toolContext } from "@/test/support/fixtures";
import type { ToolContext } from "../types";
import { buildPrompt, pageSentences, supportOf, verifyPairs } from "./grounded";
import { runner } from "./run";
import { faqGeneratorResult } from "./schema";

/**
 * A model at work: it reads the numbered sentences of the prompt and asks one question per sentence pair,
 * answering with those sentences (lightly reworded), then adds the mistakes models make: an answer with a
 * fact the page does not state, a citation of a sentence that does not exist, a repeated question.
 */
function model(body: StructuredRequestBody) {
  const sentences = [...body.input.matchAll(/^\[(\d+)\] (.+)$/gm)].map((m) => ({
    n: Number(m[1]),
    text: m[2]!,
  }));
  const pairs: { question: string; answer: string; sentences: number[] }[] = [];
  const asks = [
    "What is said about",
    "How does it work with",
    "Why does it matter:",
    "What should I know about",
  ];
  for (let i = 0; i < sentences.length && pairs.length < 9; ) {
    const s = sentences[i]!;
    const next = sentences[i + 1];
    const useNext = next !== undefined && sentences.length >= 13 && pairs.length % 3 === 0;
    const topic = s.text
      .split(" ")
      .filter((w) => w.length > 4)
      .slice(0, 3)
      .join(" ")
      .replace(/[.,]/g, "");
    pairs.push({
      question: `${asks[pairs.length % asks.length]} ${topic.toLowerCase()}`,
      answer: useNext
        ? `${s.text} ${next.text}`
        : s.text.replace(/^The /, "the ").replace(/^(\w)/, (c) => c.toUpperCase()),
      sentences: useNext ? [s.n, next.n] : [s.n],
    });
    i += useNext ? 2 : 1;
  }
  pairs.splice(2, 0, {
    question: "Who founded it",
    answer: "It was founded in 1887 by a group of sailors from Lisbon who loved adventure.",
    sentences: [1],
  });
  pairs.push({ question: "Is there a warranty", answer: "Yes, a lifetime warranty.", sentences: [999] });
  pairs.push({ ...pairs[0]! });
  return { pairs };
}

let site: FixtureServer;
let openai: FakeProvider;
const ctx = (env: Record<string, string>): ToolContext => toolContext({ env });

beforeAll(async () => {
  site = await startFixtureServer({
    routes: Object.fromEntries(
      Object.entries(FAQ_PAGES).map(([name, html]) => [
        `/${name}`,
        (_req, res) => {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(html);
        },
      ]),
    ),
  });
  openai = await startFakeOpenAiStructured(model);
});
afterAll(async () => {
  await Promise.all([site.close(), openai.close()]);
});

/** The page's visible text, whitespace collapsed, entities decoded. */
function visibleText(html: string): string {
  return normalizeSpace(
    html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/&#39;|&apos;/g, "'"),
  );
}

describe("FAQ generator with an AI engine", () => {
  expect(Object.keys(FAQ_PAGES).length).toBeGreaterThanOrEqual(10);
  for (const [name, html] of Object.entries(FAQ_PAGES)) {
    test(`${name}: 8-10 generated pairs, every supporting sentence on the page, the unsupported ones dropped`, async () => {
      openai.enqueue({ answer: { text: "" } });
      const env = { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: openai.baseUrl };
      const result = faqGeneratorResult.parse(await runner.run({ url: `${site.url}/${name}` }, ctx(env)));
      expect(result.method).toMatchObject({ kind: "generated", engine: "ChatGPT", note: null });
      expect(result.method.model).toMatch(/^gpt-/);
      expect(result.method.unsupportedDropped).toBeGreaterThanOrEqual(3);
      expect(result.count).toBeGreaterThanOrEqual(8);
      expect(result.count).toBeLessThanOrEqual(10);
      const text = visibleText(html);
      const generated = result.pairs.filter((p) => p.source === "generated");
      expect(generated.length).toBeGreaterThanOrEqual(8);
      for (const pair of generated) {
        expect(pair.supportingSentences?.length, pair.question).toBeGreaterThan(0);
        for (const sentence of pair.supportingSentences ?? [])
          expect(text, pair.question).toContain(sentence);
        expect(supportOf(pair.answer, pair.supportingSentences ?? [])).toBeGreaterThanOrEqual(0.8);
        expect(pair.question.endsWith("?")).toBe(true);
      }
      expect(result.pairs.some((p) => /1887|sailors/.test(p.answer))).toBe(false);
      expect(result.jsonLd.mainEntity).toHaveLength(result.count);
      expect(result.jsonLd.mainEntity[0]?.acceptedAnswer.text).toBe(result.pairs[0]?.answer);
      // The request was a structured-output call carrying the page's sentences, without web search.
      const sent = openai.requests.at(-1)?.body as StructuredRequestBody & { tools?: unknown };
      expect(sent.text?.format).toMatchObject({ type: "json_schema", name: "faq", strict: true });
      expect(sent.tools).toBeUndefined();
      expect(sent.input).toContain("[1] ");
    });
  }

  test("an engine failure on a page without Q&A of its own is a clear failure, never made-up pairs", async () => {
    openai.enqueue({ status: 400, message: "Invalid schema." });
    const env = { OPENAI_API_KEY: FAKE_OPENAI_KEY, OPENAI_BASE_URL: openai.baseUrl };
    const err = await runner.run({ url: `${site.url}/article` }, ctx(env)).catch((e: unknown) => e);
    // The article has no Q&A of its own to fall back on: an honest failure, not made-up pairs.
    expect(err).toMatchObject({ code: "INSUFFICIENT_CONTENT" });
  });

  test("with Claude configured instead: the same grounding, the JSON read from a fenced text answer", async () => {
    const anthropic = await startFakeAnthropic();
    try {
      const sentences = pageSentences(parsePage({ url: `${site.url}/recipe`, html: FAQ_PAGES.recipe! }));
      const answer = model({ model: "claude", input: buildPrompt("Classic banana bread", sentences) });
      anthropic.enqueue({ answer: { text: `\`\`\`json\n${JSON.stringify(answer)}\n\`\`\`` } });
      const env = { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: anthropic.baseUrl };
      const result = faqGeneratorResult.parse(await runner.run({ url: `${site.url}/recipe` }, ctx(env)));
      expect(result.method).toMatchObject({ kind: "generated", engine: "Claude" });
      const text = visibleText(FAQ_PAGES.recipe!);
      for (const p of result.pairs) for (const s of p.supportingSentences ?? []) expect(text).toContain(s);
      const sent = anthropic.requests.at(-1)?.body as { tools?: unknown; messages: { content: string }[] };
      expect(sent.tools).toBeUndefined();
      expect(sent.messages[0]?.content).toContain("JSON Schema");
    } finally {
      await anthropic.close();
    }
  });

  test("verification rules: nonexistent sentences, unsupported words, repeats", () => {
    const sentences = [
      "Orders ship within two working days.",
      "Returns are free within 30 days of delivery.",
    ];
    const out = verifyPairs(
      {
        pairs: [
          {
            question: "How fast do orders ship",
            answer: "Orders ship within two working days.",
            sentences: [1],
          },
          {
            question: "How fast do orders ship?",
            answer: "Orders ship within two working days.",
            sentences: [1],
          },
          { question: "Are returns free?", answer: "Returns are free for 90 days.", sentences: [2] },
          { question: "Do you ship abroad?", answer: "Yes.", sentences: [3] },
          { question: "Returns?", answer: "Free returns within 30 days.", sentences: [2] },
        ],
      },
      sentences,
    );
    expect(out.pairs.map((p) => p.question)).toEqual(["How fast do orders ship?", "Returns?"]);
    expect(out.dropped.map((d) => d.reason)).toEqual(
      [
        "repeated question",
        "only 80% of the answer's words are in its sentences",
        "cites sentences the page does not have",
      ].map((r, i) => (i === 1 ? expect.stringMatching(/^only \d+% of the answer's words/) : r)),
    );
  });
});
