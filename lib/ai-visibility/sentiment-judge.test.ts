import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { JUDGE_MODELS } from "@/lib/providers/structured-types";
import { type FakeEngines, startFakeEngines } from "@/test/fakes/ai/engines";
import { SENTIMENT_METHOD } from "./sentiment";
import {
  describeSentimentMethod,
  JUDGE_SCHEMA,
  judgeBrandSentiment,
  judgeSentences,
  NOT_JUDGED,
  pickJudgeEngine,
} from "./sentiment-judge";

let fakes: FakeEngines;
beforeAll(async () => {
  fakes = await startFakeEngines();
});
afterAll(() => fakes.close());

const fast = { baseDelayMs: 10, maxDelayMs: 100 };
const roaster = {
  sentences: ["Onyx Coffee Lab is an excellent small-batch roaster; its pour-overs are highly recommended."],
  brand: "Onyx Coffee Lab",
};
const only = (...keys: string[]) =>
  Object.fromEntries(
    Object.entries(fakes.env).filter(([k]) => keys.some((key) => k.startsWith(key))),
  ) as Record<string, string>;

describe("judgeBrandSentiment", () => {
  test("no engine configured: the lexicon judges and says so", async () => {
    expect(await judgeBrandSentiment(roaster, { env: {} })).toEqual({
      sentiment: "positive",
      method: "lexicon",
    });
    expect(
      await judgeBrandSentiment({ sentences: ["Norton is not recommended."], brand: "Norton" }, { env: {} }),
    ).toEqual({ sentiment: "negative", method: "lexicon" });
  });

  test("the cheapest configured provider's judge model decides, through its structured output", async () => {
    expect(pickJudgeEngine(fakes.env)).toBe("ChatGPT");
    expect(pickJudgeEngine(only("ANTHROPIC", "PERPLEXITY"))).toBe("Claude");
    expect(pickJudgeEngine(only("PERPLEXITY"))).toBe("Perplexity");
    expect(pickJudgeEngine({})).toBeNull();

    fakes.openai.enqueueStructured({ json: { sentiment: "negative" } });
    const before = fakes.openai.structuredRequests.length;
    // The model's verdict stands even where the lexicon would say otherwise.
    const verdict = await judgeBrandSentiment(roaster, { env: fakes.env });
    expect(verdict).toEqual({
      sentiment: "negative",
      method: "model",
      model: expect.stringContaining(JUDGE_MODELS.ChatGPT.defaultModel),
    });
    expect(fakes.openai.structuredRequests.length - before).toBe(1);
    const body = fakes.openai.structuredRequests.at(-1)!.body as {
      model: string;
      input: string;
      text: { format: { schema: unknown } };
    };
    expect(body.model).toBe(JUDGE_MODELS.ChatGPT.defaultModel);
    expect(body.input).toContain("Brand: Onyx Coffee Lab");
    expect(body.input).toContain(roaster.sentences[0]);
    expect(body.text.format.schema).toEqual(JUDGE_SCHEMA);
  });

  test("mixed counts as neutral and keeps its label; usage is reported for operators", async () => {
    fakes.anthropic.enqueueStructured({ json: { sentiment: "mixed" }, inputTokens: 120, outputTokens: 8 });
    const judged = await judgeSentences(roaster, {
      env: { ...only("ANTHROPIC"), ANTHROPIC_JUDGE_MODEL: "claude-judge-x" },
    });
    expect(judged).toMatchObject({
      sentiment: "neutral",
      label: "mixed",
      method: "model",
      model: "claude-judge-x",
    });
    expect(judged.usage).toEqual({
      engine: "Claude",
      purpose: "sentiment",
      model: "claude-judge-x",
      inputTokens: 120,
      outputTokens: 8,
      attempts: 1,
    });
  });

  test("a provider error falls back to the lexicon and names the reason", async () => {
    fakes.gemini.enqueueStructured({ status: 503 }, { status: 503 });
    const judged = await judgeSentences(roaster, { env: only("GEMINI"), retry: fast });
    expect(judged).toMatchObject({ sentiment: "positive", method: "lexicon" });
    expect(judged.fallbackReason).toMatch(/Gemini judge failed/);
    expect(judged.usage).toBeUndefined();
    expect(await judgeBrandSentiment(roaster, { env: only("GEMINI") })).toEqual({
      sentiment: "positive",
      method: "lexicon",
    });
  });

  test("a label outside the schema is not trusted: the lexicon judges, the call's usage is still counted", async () => {
    fakes.perplexity.enqueueStructured({ json: { sentiment: "very good" } });
    const judged = await judgeSentences(roaster, { env: only("PERPLEXITY") });
    expect(judged).toMatchObject({ sentiment: "positive", method: "lexicon" });
    expect(judged.usage).toMatchObject({ engine: "Perplexity", purpose: "sentiment" });
  });

  test("no sentences: nothing to judge, no call", async () => {
    const before = fakes.openai.structuredRequests.length;
    expect(await judgeBrandSentiment({ sentences: [], brand: "Acme" }, { env: fakes.env })).toEqual({
      sentiment: "neutral",
      method: "lexicon",
    });
    expect(fakes.openai.structuredRequests.length).toBe(before);
  });
});

test("sentimentMethod names the method of every judged entry", () => {
  const model = { method: "model", model: "gpt-5-nano", label: "positive" } as const;
  const lexicon = { method: "lexicon", label: "neutral" } as const;
  expect(describeSentimentMethod([{ engine: "ChatGPT" }])).toBe(NOT_JUDGED);
  expect(
    describeSentimentMethod([{ engine: "ChatGPT", sentimentDetail: lexicon }, { engine: "Gemini" }]),
  ).toBe(SENTIMENT_METHOD);
  expect(describeSentimentMethod([{ engine: "ChatGPT", sentimentDetail: model }])).toMatch(
    /^A model judge \(gpt-5-nano, structured output\)/,
  );
  const both = describeSentimentMethod([
    { engine: "ChatGPT", sentimentDetail: model },
    { engine: "Claude", sentimentDetail: lexicon },
  ]);
  expect(both).toContain("(ChatGPT)");
  expect(both).toContain("where the judge could not answer (Claude)");
});
