import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { classifyIntent, INTENTS, type Intent } from "./intent";

const FILE = path.resolve(import.meta.dirname, "../../test/fixtures/keywords/intent-labelled.tsv");

test("intent agrees with the labelled set on at least 85% of its phrases", () => {
  const rows = readFileSync(FILE, "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const [phrase, label] = l.split("\t");
      return { phrase: phrase!.trim(), label: label!.trim() as Intent };
    });
  expect(rows.length).toBeGreaterThanOrEqual(150);
  for (const r of rows) expect(INTENTS, r.phrase).toContain(r.label);
  const misses = rows
    .map((r) => ({ ...r, got: classifyIntent({ phrases: [r.phrase], siteNames: [] }).intent }))
    .filter((r) => r.got !== r.label);
  const agreement = (rows.length - misses.length) / rows.length;
  const byIntent = INTENTS.map((intent) => {
    const of = rows.filter((r) => r.label === intent);
    const ok = of.filter((r) => !misses.some((m) => m.phrase === r.phrase)).length;
    return `${intent} ${ok}/${of.length}`;
  });
  console.log(
    `Intent agreement with the labelled set: ${rows.length - misses.length}/${rows.length} = ${(agreement * 100).toFixed(1)}% (${byIntent.join(", ")})\n` +
      misses.map((m) => `  "${m.phrase}": labelled ${m.label}, classified ${m.got}`).join("\n"),
  );
  expect(agreement).toBeGreaterThanOrEqual(0.85);
});
