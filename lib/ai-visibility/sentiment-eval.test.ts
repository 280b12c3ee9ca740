import { afterAll, beforeAll, expect, test } from "vitest";
import { type FakeEngines, startFakeEngines } from "@/test/fakes/ai/engines";
import type { RecordedRequest } from "@/test/fakes/ai/server";
import { evaluateSentiment, formatSentimentEval } from "./sentiment-eval";
import { loadSentimentSet } from "./sentiment-set";

// Plumbing only: the fake speaks Gemini's structured-output wire format, and its verdicts are scripted, so the
// figures here measure the evaluation's counting, never a model.
let fakes: FakeEngines;
beforeAll(async () => {
  fakes = await startFakeEngines();
});
afterAll(() => fakes.close());

const set = loadSentimentSet().slice(0, 40);
const geminiOnly = () => ({
  GEMINI_API_KEY: fakes.env.GEMINI_API_KEY,
  GEMINI_BASE_URL: fakes.env.GEMINI_BASE_URL,
});
const sentenceOf = (req: RecordedRequest) => {
  const body = req.body as { contents: { parts: { text: string }[] }[] };
  return body.contents[0]!.parts[0]!.text.split("\n- ")[1]!;
};

test("with no engine configured, only the lexicon is measured and the report says so", async () => {
  const result = await evaluateSentiment({ env: {}, set });
  expect(result.model).toBeNull();
  expect(result.lexicon.api.overall.n).toBe(40);
  expect(formatSentimentEval(result)).toContain("no AI engine is configured, so no model was measured");
});

test("every sentence goes through the judge; agreement is counted per label, failures are left out", async () => {
  // Scripted: the gold label, except that every mixed sentence is called neutral and one sentence fails.
  const gold = new Map(set.map((s) => [s.sentence, s.label]));
  const failing = set[3]!.sentence;
  fakes.gemini.respondStructured((req) => {
    const sentence = sentenceOf(req);
    if (sentence === failing) return { status: 400, message: "scripted failure" };
    const label = gold.get(sentence)!;
    return { json: { sentiment: label === "mixed" ? "neutral" : label } };
  });
  const before = fakes.gemini.structuredRequests.length;
  const result = await evaluateSentiment({ env: geminiOnly(), set, concurrency: 3 }).finally(() =>
    fakes.gemini.respondStructured(null),
  );
  expect(fakes.gemini.structuredRequests.length - before).toBe(40);
  const model = result.model!;
  expect(model).toMatchObject({ engine: "Gemini", judged: 39, failed: 1, models: ["gemini-2.5-flash-lite"] });
  const mixed = set.filter((s) => s.label === "mixed" && s.sentence !== failing).length;
  expect(model.fine.overall).toEqual({ n: 39, agreed: 39 - mixed, rate: (39 - mixed) / 39 });
  expect(model.api.overall.agreed).toBe(39);
  expect(model.fine.byLabel.mixed.agreed).toBe(0);
  const report = formatSentimentEval(result);
  expect(report).toContain("Model judge: Gemini (gemini-2.5-flash-lite), 39 judged, 1 failed (left out):");
  expect(report).toContain("Lexicon:");
});
