import type { Block } from "./blocks";

const INTERROGATIVE =
  /^(what|what's|whats|how|why|when|where|who|whom|whose|which|can|could|should|would|will|is|are|was|were|do|does|did|has|have|may|must|shall|am|isn't|aren't|don't|doesn't|won't|can't)\b/i;

/** Shaped like a question a person would ask: ends with "?" or opens with an interrogative word. */
export function isQuestionText(text: string): boolean {
  const t = text.trim().replace(/^[\d.)\s]+(?=\p{L})/u, "");
  if (t.length < 6 || t.length > 200) return false;
  if (t.endsWith("?")) return true;
  // "How to …" headings are how people phrase tasks; other interrogative openers need 3+ words.
  return INTERROGATIVE.test(t) && t.split(/\s+/).length >= 3 && !/[.!:]$/.test(t);
}

/** The question as it should be displayed: numbering stripped, a question mark added when missing. */
export function toQuestion(text: string): string {
  const t = trimTrailingPunctuation(text.trim().replace(/^[\d.)\s]+(?=\p{L})/u, ""));
  return t.endsWith("?") ? t : `${t}?`;
}

const TRAILING = /[\s:;,.]/;

// A loop, not `/[\s:;,.]+$/`, which retried from every character of a long run of such marks: quadratic.
function trimTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

export interface HeadingSection {
  heading: Extract<Block, { kind: "heading" }>;
  /** Content blocks until the next heading of any level. */
  body: Block[];
}

/** Groups main-content blocks under the heading that precedes them. */
export function listHeadingSections(blocks: Block[]): HeadingSection[] {
  const sections: HeadingSection[] = [];
  for (const block of blocks) {
    if (block.kind === "heading") sections.push({ heading: block, body: [] });
    else sections.at(-1)?.body.push(block);
  }
  return sections;
}
