import { expect, test } from "vitest";
import { BRAND_SENTENCES } from "@/test/fixtures/brand-sentiment";
import { collectEntities, extractMentionSentences, findMentions } from "./mentions";
import { classifySentiment } from "./sentiment";

test("sentiment agrees with the labelled brand sentences at least 80% of the time", () => {
  expect(BRAND_SENTENCES.length).toBeGreaterThanOrEqual(60);
  const misses: string[] = [];
  for (const s of BRAND_SENTENCES) {
    const entities = collectEntities({ domain: s.domain, names: [s.brand] }, [], []);
    const analysis = findMentions(s.sentence, entities);
    expect(analysis.mentions[0]?.domain, s.sentence).toBe(s.domain);
    const got = classifySentiment(extractMentionSentences(s.sentence, analysis, s.domain));
    if (got !== s.label) misses.push(`${s.label} → ${got}: ${s.sentence}`);
  }
  const agreement = 1 - misses.length / BRAND_SENTENCES.length;
  console.log(
    `brand sentiment agreement: ${(agreement * 100).toFixed(1)}% (${BRAND_SENTENCES.length - misses.length}/${BRAND_SENTENCES.length})`,
  );
  for (const m of misses) console.log(`  miss: ${m}`);
  expect(agreement).toBeGreaterThanOrEqual(0.8);
  for (const label of ["positive", "neutral", "negative"] as const) {
    expect(BRAND_SENTENCES.filter((s) => s.label === label).length).toBeGreaterThanOrEqual(20);
  }
});
