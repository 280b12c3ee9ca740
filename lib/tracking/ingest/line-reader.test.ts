import { describe, expect, test } from "vitest";
import { seededRandom } from "@/lib/stats/proportions";
import { LineError, LineReader, MAX_REST_TRIES } from "./line-reader";

const C_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", v: "\v", f: "\f", b: "\b" };

/**
 * Whether what follows a closing quote reads as more fields: fields apart by spaces or tabs, each made of
 * characters other than white space and of quoted parts (a backslash escapes the next character). `glued`: the
 * first field follows the quote with no space and must begin with a `name=`.
 */
function readsAsFields(rest: string, glued: boolean): boolean {
  let i = 0;
  let inField = false;
  if (glued) {
    const name = /^[A-Za-z_][\w.-]*=/.exec(rest);
    if (!name) return false;
    i = name[0].length;
    inField = true;
  }
  while (i < rest.length) {
    const c = rest[i]!;
    if (c === " " || c === "\t") {
      inField = false;
      i++;
    } else if (!inField && i === 0) {
      return false; // a field after the quote needs a space first
    } else if (c === '"') {
      let j = i + 1;
      while (j < rest.length && rest[j] !== '"') j += rest[j] === "\\" ? 2 : 1;
      if (j >= rest.length) return false;
      inField = true;
      i = j + 1;
    } else if (/\s/.test(c)) {
      return false;
    } else {
      inField = true;
      i++;
    }
  }
  return true;
}

/**
 * A quoted field read one character at a time, every rule spelled out: escapes (\" \\ \xHH as UTF-8 bytes, C
 * escapes), and a bare quote that ends the field only before a space, a tab or the line's end (and, for the last
 * field, only where the rest still reads as fields, which may also begin right after the quote with a `name=`).
 * What the reader returns, or null where it throws.
 */
function reference(text: string, lastField: boolean): { value: string; end: number } | null {
  let i = 0;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] !== '"') return null;
  let out = "";
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length > 0) out += Buffer.from(bytes).toString("utf8");
    bytes = [];
  };
  let tries = 0;
  for (i = i + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (next === "x" && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
        bytes.push(Number.parseInt(text.slice(i + 2, i + 4), 16));
        i += 3;
        continue;
      }
      flush();
      out += next === '"' || next === "\\" ? next : (C_ESCAPES[next] ?? `\\${next}`);
      i++;
      continue;
    }
    flush();
    if (c === '"') {
      const spaced = i + 1 === text.length || text[i + 1] === " " || text[i + 1] === "\t";
      const rest = text.slice(i + 1);
      // Past MAX_REST_TRIES quotes of the user agent, the rest is no longer read.
      const tried = lastField && ++tries <= MAX_REST_TRIES;
      if (!tried ? spaced : spaced ? readsAsFields(rest, false) : readsAsFields(rest, true))
        return { value: out, end: i + 1 };
    }
    out += c;
  }
  return null;
}

function read(text: string, lastField: boolean): { value: string; end: number } | null {
  const reader = new LineReader(text);
  try {
    const value = reader.quoted("field", lastField);
    return { value, end: reader.i };
  } catch (error) {
    if (error instanceof LineError) return null;
    throw error;
  }
}

describe("LineReader.quoted", () => {
  test("reads every field as the character-by-character rules do (escapes, bare quotes, truncation)", () => {
    // Pieces that meet every rule: quotes, escapes of each kind, \xHH runs of a UTF-8 character, spaces, tabs.
    const pieces = [
      '"',
      '"',
      " ",
      "\t",
      "\\",
      '\\"',
      "\\\\",
      "\\x22",
      "\\xc3\\xa9",
      "\\xZZ",
      "\\n",
      "\\q",
      "a",
      "Mozilla/5.0",
      "rt=",
      "-",
      "é",
    ];
    const plain = pieces.filter((p) => !p.includes("\\"));
    const next = seededRandom(20261130);
    let escaped = 0;
    let bare = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = '"';
      const length = Math.floor(next() * 12);
      // Half the fields without a backslash: the reader's way for fields with no escape.
      const from = next() < 0.5 ? plain : pieces;
      for (let k = 0; k < length; k++) text += from[Math.floor(next() * from.length)];
      const lastField = next() < 0.5;
      const expected = reference(text, lastField);
      expect(read(text, lastField), JSON.stringify({ text, lastField })).toEqual(expected);
      if (text.includes("\\")) escaped++;
      else if (expected !== null) bare++;
    }
    // Both ways through the reader were taken many times.
    expect(escaped).toBeGreaterThan(5000);
    expect(bare).toBeGreaterThan(2000);
  });

  test("past MAX_REST_TRIES inner quotes, the user agent ends at the next quote where a field can end", () => {
    // After each of these quotes the rest does not read as fields (a no-break space cannot begin one): every
    // quote is tried, and none ends the field until the tries run out.
    const unit = 'a" \u00a0';
    const inner = unit.repeat(MAX_REST_TRIES + 8);
    for (const prefix of ["", "\\x41"]) {
      const text = `"${prefix}${inner}`;
      const expected = `${prefix ? "A" : ""}${unit.repeat(MAX_REST_TRIES)}a`;
      expect(new LineReader(text).quoted("user agent", true)).toBe(expected);
      expect(read(text, true)?.value).toBe(expected);
    }
    // A field that is not the last one is not affected: it ends at its first quote where a field can end.
    expect(new LineReader(`"${inner}`).quoted("referrer")).toBe("a");
  });

  test("a field without escapes comes back as it stands, the cursor past its closing quote", () => {
    const text = '"GET /a?q="x"&b HTTP/1.1" 200 "Mozilla/5.0 "x" y" extra';
    const reader = new LineReader(text);
    expect(reader.quoted("request line")).toBe('GET /a?q="x"&b HTTP/1.1');
    expect(reader.token("status")).toBe("200");
    expect(reader.quoted("user agent", true)).toBe('Mozilla/5.0 "x" y');
    expect(reader.token("extra")).toBe("extra");
  });
});
