/** A piece of an answer's text, marked when it names the brand. */
export interface TextPart {
  text: string;
  brand: boolean;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Splits an answer into plain and brand parts, matching the names case-insensitively on word boundaries (so
 * "Acmes" is not "Acme"), longest name first. The parts are rendered as text: nothing here is ever HTML.
 */
export function splitOnBrand(text: string, names: readonly string[]): TextPart[] {
  const wanted = [...new Set(names.map((n) => n.trim()).filter(Boolean))].sort((a, b) => b.length - a.length);
  if (wanted.length === 0 || text === "") return text ? [{ text, brand: false }] : [];
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${wanted.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}])`,
    "giu",
  );
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), brand: false });
    parts.push({ text: m[0], brand: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), brand: false });
  return parts;
}

/** A link target only for http(s) URLs; anything else (javascript:, data:) is shown as text. */
export function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
