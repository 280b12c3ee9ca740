const C_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", v: "\v", f: "\f", b: "\b" };

/** A line that cannot be read; its message is the reason reported for the line. */
export class LineError extends Error {}

// What may follow a quoted field: more fields, each a quoted string, a bare token or a token with quoted parts
// (nginx's `uct="0.000"`). Each step of a field consumes a character no other step can, so a line that does not
// match fails in linear time.
const STEP = String.raw`(?:[^\s"]|"(?:[^"\\]|\\.)*")`;
const FIELD = `${STEP}+`;
const REST_OF_FIELDS = new RegExp(String.raw`^(?:[ \t]+${FIELD})*[ \t]*$`);
// The same, where the first field follows the user agent's quote with no space: nginx's own example of timing
// fields is `"$http_user_agent"rt=$request_time uct="$upstream_connect_time" …`.
const GLUED_FIELDS = new RegExp(String.raw`^[A-Za-z_][\w.-]*=${STEP}*(?:[ \t]+${FIELD})*[ \t]*$`);

/**
 * How many of a user agent's inner quotes are tried against the rest of the line. Each try reads the rest, so a
 * line of many quotes (16 KiB of `"x= "`) would cost the square of its length; past this many, a quote ends the
 * field where a field can end. Real user agents hold a quote or two.
 */
export const MAX_REST_TRIES = 32;

/** Cursor over one log line. Apache escapes `"` as `\"`, nginx as `\x22`; both escape bytes as \xHH. */
export class LineReader {
  i = 0;
  /** The tries of the rest of the line made for the field being read (MAX_REST_TRIES). */
  private restTries = 0;
  constructor(readonly text: string) {}

  atEnd(): boolean {
    this.skipSpaces();
    return this.i >= this.text.length;
  }

  skipSpaces(): void {
    while (this.text[this.i] === " " || this.text[this.i] === "\t") this.i++;
  }

  token(field: string): string {
    this.skipSpaces();
    if (this.i >= this.text.length) throw new LineError(`truncated line: no ${field}`);
    if (this.text[this.i] === '"') return this.quoted(field);
    const start = this.i;
    while (this.i < this.text.length && this.text[this.i] !== " " && this.text[this.i] !== "\t") this.i++;
    return this.text.slice(start, this.i);
  }

  bracketed(field: string): string {
    this.skipSpaces();
    if (this.text[this.i] !== "[") throw new LineError(`no ${field}: expected "["`);
    const end = this.text.indexOf("]", this.i);
    if (end === -1) throw new LineError(`truncated line: unterminated ${field}`);
    const value = this.text.slice(this.i + 1, end);
    this.i = end + 1;
    return value;
  }

  /** `lastField`: the user agent, after which only extra fields may follow, so an inner quote is kept. */
  quoted(field: string, lastField = false): string {
    this.skipSpaces();
    if (this.text[this.i] !== '"') throw new LineError(`no ${field}: expected a quoted field`);
    // Most fields hold no escape: the text up to the quote that ends the field, sliced once (no string built a
    // character at a time, which cost a log's parse most of its time in garbage collection).
    const { text } = this;
    const start = this.i + 1;
    this.restTries = 0;
    const backslash = text.indexOf("\\", start);
    for (
      let q = text.indexOf('"', start);
      q !== -1 && (backslash === -1 || q < backslash);
      q = text.indexOf('"', q + 1)
    ) {
      if (this.endsField(q, lastField)) {
        this.i = q + 1;
        return text.slice(start, q);
      }
    }
    return this.unescaped(field, lastField);
  }

  /**
   * Some servers do not escape quotes at all: a quote ends the field only where a field can end and, for the user
   * agent, where the rest of the line still reads as fields ("Mozilla "x" y" stays whole).
   */
  private endsField(q: number, lastField: boolean): boolean {
    const { text } = this;
    const spaced = q + 1 === text.length || text[q + 1] === " " || text[q + 1] === "\t";
    if (!lastField) return spaced;
    if (++this.restTries > MAX_REST_TRIES) return spaced;
    return spaced ? REST_OF_FIELDS.test(text.slice(q + 1)) : GLUED_FIELDS.test(text.slice(q + 1));
  }

  /** A quoted field with escapes, read a character at a time (\xHH runs decoded as UTF-8). */
  private unescaped(field: string, lastField: boolean): string {
    const { text } = this;
    // The quotes are tried again from the field's start, as the fast path tried them.
    this.restTries = 0;
    let out = "";
    const bytes: number[] = [];
    for (let i = this.i + 1; i < text.length; i++) {
      const c = text[i] as string;
      if (c === "\\" && i + 1 < text.length) {
        const next = text[i + 1] as string;
        if (next === "x" && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
          bytes.push(Number.parseInt(text.slice(i + 2, i + 4), 16));
          i += 3;
          continue;
        }
        if (bytes.length > 0) out += decoded(bytes.splice(0));
        out += next === '"' || next === "\\" ? next : (C_ESCAPES[next] ?? `\\${next}`);
        i++;
        continue;
      }
      if (bytes.length > 0) out += decoded(bytes.splice(0));
      if (c === '"' && this.endsField(i, lastField)) {
        this.i = i + 1;
        return out;
      }
      out += c;
    }
    throw new LineError(`truncated line: unterminated ${field}`);
  }
}

/** Bytes decoded as UTF-8. */
function decoded(bytes: number[]): string {
  return Buffer.from(bytes).toString("utf8");
}
