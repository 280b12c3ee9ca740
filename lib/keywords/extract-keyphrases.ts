import type { Background } from "./background/background";
import type { PageZones, Zone } from "./page-zones";
import { isKeyphraseCandidate, isStopWord } from "./stop-words";
import { singular, splitFragments, tokenize } from "./tokenize";

/**
 * How much one occurrence counts, by where it is. A page's title and main heading state what it is about;
 * anchors are how the site itself names its pages; body text counts once per occurrence.
 */
const ZONE_WEIGHTS: Record<Zone, number> = {
  title: 5,
  h1: 4,
  description: 2.5,
  h2: 2.5,
  h3: 1.5,
  anchor: 1.5,
  body: 1,
};

export interface Keyphrase {
  phrase: string;
  /** Normalised form: lower case, plurals folded. */
  key: string;
  score: number;
  /** Occurrences across the analysed pages. */
  occurrences: number;
  /** URLs of the pages using the phrase, strongest first. */
  pages: string[];
  /** Zones it appeared in (title, h1…). */
  zones: Zone[];
  /** Zone-weighted occurrences per page URL. */
  pageWeights: Map<string, number>;
}

interface Candidate {
  key: string;
  words: string[];
  surfaces: Map<string, number>;
  weight: number;
  occurrences: number;
  perPage: Map<string, number>;
  zones: Set<Zone>;
}

const MAX_WORDS = 3;
const MAX_CANDIDATES = 200_000;

/**
 * Statistical keyphrase extraction over a site's pages: candidate n-grams (1–3 words, bounded by stop words and
 * punctuation), weighted by zone, damped by how common their words are in general English (the background
 * corpus), boosted by how many pages share them, with phrases folded into longer ones that carry them.
 */
export function extractKeyphrases(pages: PageZones[], background: Background, limit = 50): Keyphrase[] {
  const candidates = new Map<string, Candidate>();
  const template = findTemplateLines(pages);
  const counted = new Set<string>();
  for (const page of pages) {
    for (const { zone, line } of linesOf(page)) {
      // Navigation, footers and banners repeated on most pages are the site's template, not its topics:
      // such a line counts once for the whole site.
      const key = `${zone}\u0000${line}`;
      if (template.has(key)) {
        if (counted.has(key)) continue;
        counted.add(key);
      }
      for (const fragment of splitFragments(line)) {
        const words = tokenize(fragment);
        for (let i = 0; i < words.length; i++) {
          if (isStopWord(words[i]!)) continue;
          for (let n = 1; n <= MAX_WORDS && i + n <= words.length; n++) {
            const last = words[i + n - 1]!;
            if (n > 1 && isStopWord(last)) continue;
            const slice = words.slice(i, i + n);
            if (!isKeyphraseCandidate(slice)) continue;
            // Inner stop words are allowed only in three-word phrases ("point of sale"), never two in a row.
            if (n === 3 && isStopWord(slice[1]!) && !["of", "and", "for", "in", "to"].includes(slice[1]!))
              continue;
            const key = slice.map(singular).join(" ");
            let c = candidates.get(key);
            if (!c) {
              if (candidates.size >= MAX_CANDIDATES) continue;
              c = {
                key,
                words: key.split(" "),
                surfaces: new Map(),
                weight: 0,
                occurrences: 0,
                perPage: new Map(),
                zones: new Set(),
              };
              candidates.set(key, c);
            }
            const surface = slice.join(" ");
            c.surfaces.set(surface, (c.surfaces.get(surface) ?? 0) + 1);
            c.weight += ZONE_WEIGHTS[zone];
            c.occurrences++;
            c.perPage.set(page.url, (c.perPage.get(page.url) ?? 0) + ZONE_WEIGHTS[zone]);
            c.zones.add(zone);
          }
        }
      }
    }
  }

  const pageCount = Math.max(1, pages.length);
  const scored = [...candidates.values()]
    .filter((c) => c.occurrences >= 2 || c.zones.has("title") || c.zones.has("h1"))
    .map((c) => {
      const content = c.words.filter((w) => !isStopWord(w));
      const rarity = content.reduce((sum, w) => sum + background.idf(w), 0) / Math.max(1, content.length);
      // Longer phrases are more specific; pages sharing a phrase make it a site topic rather than a one-off.
      const length = 1 + 0.35 * (c.words.length - 1);
      const spread = 1 + Math.log(1 + c.perPage.size) / Math.log(1 + pageCount);
      return { c, score: Math.log(1 + c.weight) * rarity * length * spread };
    })
    .sort((a, b) => b.score - a.score || a.c.key.localeCompare(b.c.key));

  // A shorter phrase that mostly occurs inside a longer kept phrase adds nothing of its own.
  const kept: typeof scored = [];
  for (const entry of scored) {
    if (kept.length >= limit) break;
    const swallowed = kept.some(
      (k) =>
        k.c.words.length > entry.c.words.length &&
        containsPhrase(k.c.words, entry.c.words) &&
        entry.c.occurrences <= k.c.occurrences * 1.25,
    );
    if (!swallowed) kept.push(entry);
  }
  return kept.map(({ c, score }) => ({
    phrase: mostCommon(c.surfaces),
    key: c.key,
    score: Math.round(score * 100) / 100,
    occurrences: c.occurrences,
    pages: [...c.perPage.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([url]) => url),
    zones: [...c.zones],
    pageWeights: c.perPage,
  }));
}

function* linesOf(page: PageZones): Generator<{ zone: Zone; line: string }> {
  for (const { zone, text } of page.texts) {
    for (const line of text.split("\n")) if (line.trim()) yield { zone, line: line.trim() };
  }
}

/** Lines (per zone) found on at least half the pages, and on three or more. */
function findTemplateLines(pages: PageZones[]): Set<string> {
  const threshold = Math.max(3, pages.length / 2);
  const seenOn = new Map<string, number>();
  for (const page of pages) {
    const mine = new Set<string>();
    for (const { zone, line } of linesOf(page)) mine.add(`${zone}\u0000${line}`);
    for (const key of mine) seenOn.set(key, (seenOn.get(key) ?? 0) + 1);
  }
  return new Set([...seenOn].filter(([, n]) => n >= threshold).map(([key]) => key));
}

export function containsPhrase(haystack: string[], needle: string[]): boolean {
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, j) => haystack[i + j] === w)) return true;
  }
  return false;
}

function mostCommon(counts: Map<string, number>): string {
  let best = "";
  let bestCount = -1;
  for (const [surface, n] of counts) {
    if (n > bestCount || (n === bestCount && surface < best)) {
      best = surface;
      bestCount = n;
    }
  }
  return best;
}
