// Rebuilds background-df.tsv from WordNet 3.0's data files (Debian/Ubuntu package `wordnet-base`):
//   npx tsx lib/keywords/background/build-background.ts [/usr/share/wordnet]
// Each synset is one document: its words plus its gloss. See README.md beside this file.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { singular, tokenize } from "../tokenize";

const dir = process.argv[2] ?? "/usr/share/wordnet";
const MIN_DF = 2;
const df = new Map<string, number>();
let documents = 0;

for (const part of ["noun", "verb", "adj", "adv"]) {
  for (const line of readFileSync(path.join(dir, `data.${part}`), "utf8").split("\n")) {
    // The licence header lines start with spaces; synset lines with their 8-digit offset.
    if (!/^\d{8} /.test(line)) continue;
    const bar = line.indexOf(" | ");
    const fields = line.slice(0, bar < 0 ? undefined : bar).split(" ");
    const wordCount = Number.parseInt(fields[3] ?? "0", 16);
    const lemmas = Array.from({ length: wordCount }, (_, i) => (fields[4 + i * 2] ?? "").replace(/_/g, " "));
    const gloss = bar < 0 ? "" : line.slice(bar + 3);
    const terms = new Set(tokenize(`${lemmas.join(" ")} ${gloss}`).map(singular));
    documents++;
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  }
}

const rows = [...df.entries()]
  .filter(([t, n]) => n >= MIN_DF && !/^\d+$/.test(t))
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
const out = [`#documents\t${documents}`, ...rows.map(([t, n]) => `${t}\t${n}`)].join("\n");
writeFileSync(path.join(import.meta.dirname, "background-df.tsv"), `${out}\n`);
console.log(JSON.stringify({ documents, terms: rows.length, bytes: Buffer.byteLength(out) }));
