/** One occurrence of a term in a text. */
export interface TermMatch {
  /** Which entity the term belongs to (its registrable domain). */
  key: string;
  start: number;
  end: number;
}

export interface TermSet {
  key: string;
  /** Lower-case terms: the domain, its label, the site's own name. */
  terms: string[];
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}

/**
 * Every whole-word occurrence of every term in `lower` (already lower-cased), longest first where they overlap,
 * in text order. Each term is found with indexOf scans, so the work is linear in the text for each of the few
 * terms (no backtracking regular expression ever sees the answer text). A term inside a longer word does not
 * count; where a brand label sits inside another entity's domain (`acme` in `acme-rival.com`), the longer
 * match wins.
 */
export function findTermMatches(lower: string, sets: readonly TermSet[]): TermMatch[] {
  const found: TermMatch[] = [];
  for (const set of sets) {
    for (const term of new Set(set.terms)) {
      if (term.length < 2) continue;
      for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + 1)) {
        const end = at + term.length;
        if (isWordChar(lower[at - 1]) || isWordChar(lower[end])) continue;
        found.push({ key: set.key, start: at, end });
      }
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: TermMatch[] = [];
  let reach = -1;
  for (const match of found) {
    if (match.start < reach) continue;
    kept.push(match);
    reach = match.end;
  }
  return kept;
}
