import { expect, test } from "vitest";
import { analyzeAnswer } from "./analyze-answer";
import { classifyBrandSentiment } from "./sentiment";
import { toSentiment } from "./sentiment-judge";
import { loadSentimentSet, measureAgreement } from "./sentiment-set";

const set = loadSentimentSet();

test("the labelled set has at least 200 sentences covering every label, comparisons, negation and sarcasm", () => {
  expect(set.length).toBeGreaterThanOrEqual(200);
  const count = (f: (s: (typeof set)[number]) => boolean) => set.filter(f).length;
  for (const label of ["positive", "neutral", "negative"] as const)
    expect(count((s) => s.label === label)).toBeGreaterThanOrEqual(50);
  expect(count((s) => s.label === "mixed")).toBeGreaterThanOrEqual(30);
  expect(count((s) => s.tags?.includes("comparative") ?? false)).toBeGreaterThanOrEqual(20);
  expect(count((s) => s.tags?.includes("negation") ?? false)).toBeGreaterThanOrEqual(20);
  expect(count((s) => s.tags?.includes("sarcasm") ?? false)).toBeGreaterThanOrEqual(10);
  expect(new Set(set.map((s) => s.brand)).size).toBeGreaterThanOrEqual(80);
  for (const s of set) expect(s.sentence.toLowerCase(), s.sentence).toContain(s.brand.toLowerCase());
});

test("the lexicon's agreement with the labelled set (mixed counted as neutral)", () => {
  const pairs = set.map((s) => ({
    expected: s.label,
    got: classifyBrandSentiment([s.sentence], s.brand),
    s,
  }));
  const { overall, byLabel } = measureAgreement(pairs, toSentiment);
  const pct = (a: { agreed: number; n: number; rate: number }) =>
    `${(a.rate * 100).toFixed(1)}% (${a.agreed}/${a.n})`;
  console.log(`lexicon agreement: ${pct(overall)}`);
  for (const [label, a] of Object.entries(byLabel)) console.log(`  ${label}: ${pct(a)}`);
  for (const tag of ["comparative", "negation", "sarcasm"] as const) {
    const tagged = measureAgreement(
      pairs.filter((p) => p.s.tags?.includes(tag)),
      toSentiment,
    ).overall;
    console.log(`  tagged ${tag}: ${pct(tagged)}`);
  }
  const fine = measureAgreement(pairs).overall;
  console.log(`  four labels (mixed kept apart): ${pct(fine)}`);
  for (const p of pairs)
    if (toSentiment(p.expected) !== toSentiment(p.got))
      console.log(`  miss: ${p.expected} → ${p.got}: ${p.s.sentence}`);
  // The floor the lexicon meets on this set (sarcasm is beyond a lexicon and counts against it).
  expect(overall.rate).toBeGreaterThanOrEqual(0.85);
  expect(byLabel.positive.rate).toBeGreaterThanOrEqual(0.9);
  expect(byLabel.neutral.rate).toBeGreaterThanOrEqual(0.9);
});

test.each([
  ["Onyx Coffee Lab", "an excellent small-batch roaster; its pour-overs are highly recommended", "positive"],
  [
    "Onyx Coffee Lab",
    "Onyx Coffee Lab is an excellent small-batch roaster; its pour-overs are highly recommended.",
    "positive",
  ],
  ["Norton", "Norton is not recommended for older laptops.", "negative"],
  ["Hetzner", "There is nothing wrong with Hetzner.", "positive"],
  ["Jira", "Linear is faster and cleaner than Jira.", "negative"],
  ["Linear", "Linear is faster and cleaner than Jira.", "positive"],
  ["Gmail", "Compared with Gmail, Fastmail offers stronger privacy.", "negative"],
  ["Postgres", "Postgres outperforms many commercial databases.", "positive"],
  ["Oracle", "MySQL outperforms Oracle on small servers.", "negative"],
  ["Jira", "Jira is powerful, but its interface is cluttered and slow.", "mixed"],
  ["Stripe", "Stripe was founded in 2010.", "neutral"],
] as const)("lexicon: %s in %j is %s", (brand, sentence, label) => {
  expect(classifyBrandSentiment([sentence], brand)).toBe(label);
});

test("in an answer, a comparison the brand loses to a competitor is negative for it, and positive for the winner", () => {
  const answer = {
    engine: "ChatGPT" as const,
    model: "m",
    answer: "Rival is faster and cleaner than Acme. Acme was founded in 2012.",
    sources: [],
    retrieved: [],
    queries: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    attempts: 1,
  };
  const acme = analyzeAnswer(answer, [], { domain: "acme.com", siteName: null, competitors: ["rival.io"] });
  expect(acme.mentionSentences.masked[0]).toBe("otherbrand is faster and cleaner than thebrand.");
  expect(acme.mentionSentences.raw[0]).toBe("Rival is faster and cleaner than Acme.");
  expect(acme.entry).toMatchObject({
    sentiment: "negative",
    sentimentDetail: { label: "negative", method: "lexicon" },
  });
  const rival = analyzeAnswer(answer, [], { domain: "rival.io", siteName: null, competitors: ["acme.com"] });
  expect(rival.entry.sentiment).toBe("positive");
});
