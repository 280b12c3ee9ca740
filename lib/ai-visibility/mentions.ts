import { findDomainLabel, findRegistrableDomain } from "./domains";
import { findTermMatches, type TermMatch, type TermSet } from "./match-terms";

/** A brand or domain an answer can name. */
export interface BrandEntity {
  /** Registrable domain, e.g. `acme.com`. */
  domain: string;
  /** Extra names: the site's own name (og:site_name or title) when it was read. */
  names?: string[];
}

interface Mention {
  domain: string;
  /** The text as the answer wrote it. */
  text: string;
  /** 1-based order of first mention among every entity the answer names. */
  position: number;
}

/** The terms that count as naming an entity: its domain, its label (hyphens also as spaces), its names. */
function buildTerms(entity: BrandEntity): string[] {
  const terms = [entity.domain.toLowerCase()];
  const label = findDomainLabel(entity.domain);
  if (label) {
    terms.push(label);
    if (label.includes("-")) terms.push(label.replaceAll("-", " "));
  }
  for (const name of entity.names ?? []) {
    const clean = name.trim().toLowerCase().replace(/\s+/g, " ");
    if (clean.length >= 2 && clean.length <= 80) terms.push(clean);
  }
  return terms;
}

/**
 * The entities an answer is checked for: the domain first, then competitors, then every other domain the
 * engine cited. Duplicates (by registrable domain) keep their first role.
 */
export function collectEntities(
  domain: BrandEntity,
  competitors: readonly string[],
  citedDomains: readonly string[],
): BrandEntity[] {
  const entities: BrandEntity[] = [];
  const seen = new Set<string>();
  const add = (entity: BrandEntity) => {
    const key = findRegistrableDomain(entity.domain) ?? entity.domain.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    entities.push({ ...entity, domain: key });
  };
  add(domain);
  for (const c of competitors) add({ domain: c });
  for (const c of citedDomains) add({ domain: c });
  return entities;
}

/** The words `mask: "distinct"` puts in place of the brand under judgement and of any other brand. */
export const BRAND_MARKER = "thebrand";
const OTHER_BRAND_MARKER = "otherbrand";

export interface MentionAnalysis {
  /** Every entity named, in order of first mention. */
  mentions: Mention[];
  /** Every whole-word match, in text order (for sentence extraction and highlighting). */
  matches: TermMatch[];
  /** The text the match offsets refer to (lower-cased answer). */
  lower: string;
}

export function findMentions(answer: string, entities: readonly BrandEntity[]): MentionAnalysis {
  const lower = answer.toLowerCase();
  const sets: TermSet[] = entities.map((e) => ({ key: e.domain, terms: buildTerms(e) }));
  const matches = findTermMatches(lower, sets);
  // toLowerCase can change the length of a few scripts; offsets then refer to `lower` only.
  const source = lower.length === answer.length ? answer : lower;
  const mentions: Mention[] = [];
  const named = new Set<string>();
  for (const m of matches) {
    if (named.has(m.key)) continue;
    named.add(m.key);
    mentions.push({ domain: m.key, text: source.slice(m.start, m.end), position: mentions.length + 1 });
  }
  return { mentions, matches, lower };
}

/**
 * The sentences of `answer` that contain a match of `key`, with every entity name in them replaced by a neutral
 * word, so that a brand called "Best Buy" or "Happy Labs" does not colour its own sentiment: `it` for every
 * name (`mask: "same"`, the default), or BRAND_MARKER for `key` and OTHER_BRAND_MARKER for the others
 * (`"distinct"`, so that a comparison still tells them apart); `"none"` keeps the names as written (for a model judge). Sentences end at
 * . ! ? followed by white space, or at a line break; the scan is linear.
 */
export function extractMentionSentences(
  answer: string,
  analysis: MentionAnalysis,
  key: string,
  options: { mask?: "same" | "distinct" | "none" } = {},
): string[] {
  const mask = options.mask ?? "same";
  const text = analysis.lower.length === answer.length ? answer : analysis.lower;
  const bounds = splitSentences(text);
  const sentences: string[] = [];
  let b = 0;
  const used = new Set<number>();
  for (const m of analysis.matches) {
    if (m.key !== key) continue;
    while (b < bounds.length && bounds[b]![1] <= m.start) b++;
    if (b < bounds.length && !used.has(b)) used.add(b);
  }
  // Sentences and matches are both in text order: one forward pointer keeps the masking linear.
  let first = 0;
  for (const index of [...used].sort((x, y) => x - y)) {
    const [start, end] = bounds[index]!;
    while (first < analysis.matches.length && analysis.matches[first]!.end <= start) first++;
    let out = "";
    let at = start;
    for (let k = first; k < analysis.matches.length && analysis.matches[k]!.start < end; k++) {
      const m = analysis.matches[k]!;
      if (mask === "none") break;
      const word = mask === "same" ? "it" : m.key === key ? BRAND_MARKER : OTHER_BRAND_MARKER;
      out += `${text.slice(at, Math.max(at, m.start))}${word}`;
      at = Math.max(at, m.end);
    }
    out += text.slice(Math.min(at, end), end);
    sentences.push(out.trim());
  }
  return sentences;
}

function splitSentences(text: string): [number, number][] {
  const bounds: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const isEnd =
      ch === "\n" ||
      ((ch === "." || ch === "!" || ch === "?") && (i + 1 === text.length || /\s/.test(text[i + 1]!)));
    if (isEnd) {
      bounds.push([start, i + 1]);
      start = i + 1;
    }
  }
  if (start < text.length) bounds.push([start, text.length]);
  return bounds;
}
