// Matching a user agent against hundreds of regexes one by one costs ~100 µs, and one giant alternation is
// worse (V8 cannot pick a literal prefix out of it). Every pattern we use contains a literal that any match
// must include, so we index those literals by their first three characters, scan the text once, and run
// only the few regexes whose literal is actually present.

const MIN_ANCHOR = 3;
const LITERAL_ESCAPES = new Set("/.-()[]+?*\\:=&{}|^$ ,;@!#%'\"<>_~".split(""));

function splitTopLevel(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}

/** The longest literal run every match of `source` (one alternative, no top-level `|`) must contain. */
function extractFromAlternative(source: string): string {
  let best = "";
  let current = "";
  let depth = 0;
  const flush = () => {
    if (current.length > best.length) best = current;
    current = "";
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      i += 2;
      if (depth > 0) continue;
      if (!LITERAL_ESCAPES.has(next)) {
        flush(); // \b, \d, \w, \s…: not a literal character
        continue;
      }
      const quantifier = source[i];
      if (quantifier === "?" || quantifier === "*" || quantifier === "{") {
        flush(); // an optional character breaks the run
        continue;
      }
      current += next;
      continue;
    }
    if (c === "(") {
      if (depth === 0) flush();
      depth++;
      i++;
      continue;
    }
    if (c === ")") {
      depth--;
      i++;
      continue;
    }
    if (c === "[") {
      if (depth === 0) flush();
      i++;
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    if (depth > 0) {
      i++;
      continue;
    }
    if (c === "." || c === "^" || c === "$" || c === "+") {
      flush();
      i++;
      continue;
    }
    if (c === "?" || c === "*" || c === "{") {
      current = current.slice(0, -1); // the quantified character itself is optional
      flush();
      if (c === "{") while (i < source.length && source[i] !== "}") i++;
      i++;
      continue;
    }
    current += c;
    i++;
  }
  flush();
  return best;
}

/**
 * The literals a regex requires, one per top-level alternative, or null when some alternative has no
 * literal of at least three characters (such a pattern must then always be tried).
 */
export function extractAnchors(regex: RegExp): string[] | null {
  const anchors: string[] = [];
  for (const alternative of splitTopLevel(regex.source)) {
    const literal = extractFromAlternative(alternative);
    if (literal.length < MIN_ANCHOR) return null;
    anchors.push(regex.flags.includes("i") ? literal.toLowerCase() : literal);
  }
  return anchors;
}

function keyAt(text: string, i: number): number {
  return text.charCodeAt(i) * 4294967296 + text.charCodeAt(i + 1) * 65536 + text.charCodeAt(i + 2);
}

interface PatternMatch {
  index: number;
  match: RegExpExecArray;
}

/** Finds the lowest-index pattern that matches a text, trying only patterns whose anchor occurs in it. */
export interface AnchoredMatcher {
  findFirst(text: string): PatternMatch | null;
  size: number;
}

/**
 * Builds a matcher over `regexes` (all case-sensitive or all case-insensitive, as `caseInsensitive` says;
 * lowest index wins when several match).
 */
export function createAnchoredMatcher(regexes: readonly RegExp[], caseInsensitive: boolean): AnchoredMatcher {
  const byKey = new Map<number, { anchor: string; index: number }[]>();
  const alwaysTry: number[] = [];
  regexes.forEach((regex, index) => {
    // A case-sensitive pattern in a case-insensitive matcher still requires its literal, in lower case here.
    const anchors = extractAnchors(regex)?.map((a) => (caseInsensitive ? a.toLowerCase() : a));
    if (!anchors) {
      alwaysTry.push(index);
      return;
    }
    for (const anchor of anchors) {
      const key = keyAt(anchor, 0);
      const bucket = byKey.get(key);
      if (bucket) bucket.push({ anchor, index });
      else byKey.set(key, [{ anchor, index }]);
    }
  });

  return {
    size: regexes.length,
    findFirst(text) {
      const haystack = caseInsensitive ? text.toLowerCase() : text;
      let candidates: number[] | null = alwaysTry.length > 0 ? [...alwaysTry] : null;
      for (let i = 0; i + MIN_ANCHOR <= haystack.length; i++) {
        const bucket = byKey.get(keyAt(haystack, i));
        if (!bucket) continue;
        for (const entry of bucket) {
          if (!haystack.startsWith(entry.anchor, i)) continue;
          if (!candidates) candidates = [entry.index];
          else if (!candidates.includes(entry.index)) candidates.push(entry.index);
        }
      }
      if (!candidates) return null;
      candidates.sort((a, b) => a - b);
      for (const index of candidates) {
        const regex = regexes[index] as RegExp;
        regex.lastIndex = 0;
        const match = regex.exec(text);
        if (match) return { index, match };
      }
      return null;
    },
  };
}
