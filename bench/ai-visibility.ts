// npx tsx bench/ai-visibility.ts: cost of the AI visibility analysis apart from the engines' own latency.
// 1. Mention matching on answers of growing size (ordinary prose and an adversarial near-miss text): the time
//    per 100k characters must stay flat, showing the scan is linear.
// 2. A whole four-engine citation check against the local fake providers: wall time and heap growth per check.

import { collectEntities, extractMentionSentences, findMentions } from "@/lib/ai-visibility/mentions";
import { runCitationCheck } from "@/lib/ai-visibility/run-checks";
import { classifySentiment } from "@/lib/ai-visibility/sentiment";
import { createRoutedFetch, startFakeEngines } from "@/test/fakes/ai/engines";

const entities = collectEntities(
  { domain: "acme.com", names: ["Acme Cloud"] },
  ["rival.io", "other-tool.com"],
  ["wikipedia.org", "reddit.com", "g2.com"],
);
const prose =
  "Teams comparing project tools often shortlist Rival and Acme Cloud. Reviewers on Reddit praise acme.com for its " +
  "clean interface, while G2 lists Other Tool as cheaper. Acmeville and macmes are unrelated words. ";
const adversarial = "acmeacme acm acmx rivalx ";

function time(fn: () => void, runs: number): number {
  fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - started) / runs;
}

console.log("mention matching + sentiment of the mention sentences");
console.log("text          chars      ms/call   ms per 100k chars");
for (const [name, unit] of [
  ["prose", prose],
  ["adversarial", adversarial],
] as const) {
  for (const size of [10_000, 100_000, 1_000_000]) {
    const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const ms = time(
      () => {
        const analysis = findMentions(text, entities);
        classifySentiment(extractMentionSentences(text, analysis, "acme.com"));
      },
      size >= 1_000_000 ? 3 : 20,
    );
    console.log(
      `${name.padEnd(12)} ${String(size).padStart(9)} ${ms.toFixed(2).padStart(10)} ${((ms / size) * 100_000).toFixed(2).padStart(12)}`,
    );
  }
}

const fakes = await startFakeEngines();
const fetch = createRoutedFetch({});
const answer = {
  text: `${prose.repeat(12)}Acme Cloud is a reliable choice.`,
  sources: [
    { url: "https://www.acme.com/guide", title: "Guide" },
    { url: "https://rival.io/", title: "Rival" },
  ],
};
const runs = 50;
for (let i = 0; i < runs + 1; i++) {
  for (const fake of [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity])
    fake.enqueue({ answer });
}
const check = () =>
  runCitationCheck(
    { prompt: "best project tool?", domain: "acme.com", competitors: ["rival.io"] },
    { signal: new AbortController().signal, fetch, env: fakes.env },
  );
await check();
globalThis.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
for (let i = 0; i < runs; i++) await check();
const wall = (performance.now() - started) / runs;
const heapAfter = process.memoryUsage().heapUsed;
console.log(
  `\nfour-engine citation check against local fakes: ${wall.toFixed(1)} ms per check over ${runs} runs; ` +
    `heap ${(heapBefore / 1048576).toFixed(1)} → ${(heapAfter / 1048576).toFixed(1)} MiB`,
);
await fakes.close();
