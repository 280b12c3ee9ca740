import { readFileSync } from "node:fs";
import path from "node:path";

export interface Background {
  documents: number;
  df: Map<string, number>;
  /** ln((N + 1) / (df + 1)) + 1: 1 for the commonest words, largest for words the corpus never uses. */
  idf(term: string): number;
}

export const BACKGROUND_SOURCE = "WordNet 3.0 synsets (Princeton University), document frequencies";

let cached: Background | null = null;

function backgroundFile(): string {
  const here = typeof import.meta.dirname === "string" ? import.meta.dirname : null;
  return here
    ? path.join(here, "background-df.tsv")
    : path.join(process.cwd(), "lib", "keywords", "background", "background-df.tsv");
}

/** The shipped document-frequency table, read once per process. */
export function loadBackground(): Background {
  if (cached) return cached;
  const df = new Map<string, number>();
  let documents = 0;
  for (const line of readFileSync(backgroundFile(), "utf8").split("\n")) {
    const tab = line.indexOf("\t");
    if (tab < 0) continue;
    if (line.startsWith("#documents")) documents = Number(line.slice(tab + 1));
    else df.set(line.slice(0, tab), Number(line.slice(tab + 1)));
  }
  if (!(documents > 0)) throw new Error("background-df.tsv lacks its #documents line");
  const idf = (term: string) => Math.log((documents + 1) / ((df.get(term) ?? 0) + 1)) + 1;
  cached = { documents, df, idf };
  return cached;
}
