/**
 * Words of a text, lower-cased, in order: letters and digits, with inner apostrophes and hyphens kept
 * ("point-in-time", "don't"). One pass of a non-backtracking pattern, so linear in the text's length.
 */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Splits at sentence and clause punctuation, so no candidate phrase spans two clauses. */
export function splitFragments(text: string): string[] {
  return text.split(/[.,;:!?()[\]{}"“”«»|•·…–—\n\r\t/\\]+/u);
}

/** Folds regular English plurals so "beans" and "bean" count as one word. */
export function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is|ous|ics)$/.test(word)) return word;
  if (/(ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("'s")) return word.slice(0, -1);
  return word;
}
