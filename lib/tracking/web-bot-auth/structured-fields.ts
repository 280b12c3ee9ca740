// Structured Field Values for HTTP (RFC 8941): the parsing and serialisation HTTP Message Signatures needs
// (Signature-Input, Signature and Signature-Agent are Dictionaries; a signature's parameters are re-serialised
// into its signature base exactly as RFC 8941 section 4.1 prescribes).

export class Token {
  constructor(readonly value: string) {}

  /** As written in the field, so a reason that names a parameter's value shows it. */
  toString(): string {
    return this.value;
  }
}

/**
 * A Decimal (a number written with a fraction, "1.0" or "2.50"): kept apart from an Integer of the same value, so it
 * serialises back as a decimal ("1.0"), as the signature base must, and never passes for an Integer parameter.
 */
export class Decimal {
  constructor(readonly value: number) {}

  /** As serialised in the field ("1.0"), so a reason that names a parameter's value shows it. */
  toString(): string {
    return serializeBareItem(this);
  }
}

type BareItem = number | Decimal | string | Token | Uint8Array | boolean;
type Parameters = Map<string, BareItem>;
export interface Item {
  value: BareItem;
  params: Parameters;
}
export interface InnerList {
  items: Item[];
  params: Parameters;
}
export type Member = Item | InnerList;
export type Dictionary = Map<string, Member>;

export class StructuredFieldError extends Error {}

export function isInnerList(member: Member): member is InnerList {
  return (member as InnerList).items !== undefined;
}

const KEY_START = /[a-z*]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
const TOKEN_START = /[A-Za-z*]/;
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

class Parser {
  i = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new StructuredFieldError(`${what} at character ${this.i + 1}`);
  }

  skipSp(): void {
    while (this.text[this.i] === " ") this.i++;
  }

  skipOws(): void {
    while (this.text[this.i] === " " || this.text[this.i] === "\t") this.i++;
  }

  done(): boolean {
    return this.i >= this.text.length;
  }

  dictionary(): Dictionary {
    const dict: Dictionary = new Map();
    while (!this.done()) {
      const key = this.key();
      let member: Member;
      if (this.text[this.i] === "=") {
        this.i++;
        member = this.member();
      } else {
        member = { value: true, params: this.params() };
      }
      dict.set(key, member);
      this.skipOws();
      if (this.done()) return dict;
      if (this.text[this.i] !== ",") this.fail("expected a comma");
      this.i++;
      this.skipOws();
      if (this.done()) this.fail("trailing comma");
    }
    return dict;
  }

  member(): Member {
    return this.text[this.i] === "(" ? this.innerList() : this.item();
  }

  innerList(): InnerList {
    this.i++; // (
    const items: Item[] = [];
    while (!this.done()) {
      this.skipSp();
      if (this.text[this.i] === ")") {
        this.i++;
        return { items, params: this.params() };
      }
      items.push(this.item());
      const c = this.text[this.i];
      if (c !== " " && c !== ")") this.fail("expected a space or ) in an inner list");
    }
    return this.fail("unterminated inner list");
  }

  item(): Item {
    return { value: this.bareItem(), params: this.params() };
  }

  params(): Parameters {
    const params: Parameters = new Map();
    while (this.text[this.i] === ";") {
      this.i++;
      this.skipSp();
      const key = this.key();
      let value: BareItem = true;
      if (this.text[this.i] === "=") {
        this.i++;
        value = this.bareItem();
      }
      params.set(key, value);
    }
    return params;
  }

  key(): string {
    const start = this.i;
    if (!KEY_START.test(this.text[this.i] ?? "")) this.fail("expected a key");
    this.i++;
    while (KEY_CHAR.test(this.text[this.i] ?? "")) this.i++;
    return this.text.slice(start, this.i);
  }

  bareItem(): BareItem {
    const c = this.text[this.i] ?? "";
    if (c === "-" || (c >= "0" && c <= "9")) return this.number();
    if (c === '"') return this.string();
    if (c === ":") return this.bytes();
    if (c === "?") return this.boolean();
    if (TOKEN_START.test(c)) return this.token();
    return this.fail("expected an item");
  }

  number(): number | Decimal {
    const m = /^-?(\d{1,15})(\.\d{1,3})?/.exec(this.text.slice(this.i));
    if (!m) return this.fail("invalid number");
    if (m[2] && (m[1] as string).length > 12) this.fail("decimal too long");
    const next = this.text[this.i + m[0].length];
    if (next !== undefined && next >= "0" && next <= "9") this.fail("number too long");
    if (next === ".") this.fail(m[2] ? "invalid decimal" : "a decimal needs digits after its point");
    this.i += m[0].length;
    // -0 is 0: the sign of a zero is not kept (RFC 8941 serialises it as "0").
    const value = Number(m[0]) + 0;
    return m[2] ? new Decimal(value) : value;
  }

  string(): string {
    this.i++;
    let out = "";
    while (!this.done()) {
      const c = this.text[this.i++] as string;
      if (c === "\\") {
        const next = this.text[this.i++];
        if (next !== '"' && next !== "\\") this.fail("invalid escape in a string");
        out += next;
      } else if (c === '"') {
        return out;
      } else {
        const code = c.charCodeAt(0);
        if (code < 0x20 || code > 0x7e) this.fail("invalid character in a string");
        out += c;
      }
    }
    return this.fail("unterminated string");
  }

  bytes(): Uint8Array {
    const end = this.text.indexOf(":", this.i + 1);
    if (end === -1) this.fail("unterminated byte sequence");
    const b64 = this.text.slice(this.i + 1, end);
    if (!BASE64.test(b64)) this.fail("invalid base64 in a byte sequence");
    this.i = end + 1;
    return new Uint8Array(Buffer.from(b64, "base64"));
  }

  boolean(): boolean {
    const v = this.text[this.i + 1];
    if (v !== "0" && v !== "1") this.fail("invalid boolean");
    this.i += 2;
    return v === "1";
  }

  token(): Token {
    const start = this.i;
    this.i++;
    while (TOKEN_CHAR.test(this.text[this.i] ?? "")) this.i++;
    return new Token(this.text.slice(start, this.i));
  }
}

function parseWhole<T>(text: string, read: (p: Parser) => T): T {
  const p = new Parser(text.replace(/^[ ]+|[ ]+$/g, ""));
  const value = read(p);
  p.skipSp();
  if (!p.done()) p.fail("unexpected characters");
  return value;
}

/** Parses a Dictionary field value (RFC 8941 section 4.2.2); throws StructuredFieldError. */
export function parseDictionary(text: string): Dictionary {
  return parseWhole(text, (p) => p.dictionary());
}

/** Parses an Item field value (RFC 8941 section 4.2.3); throws StructuredFieldError. */
export function parseItem(text: string): Item {
  return parseWhole(text, (p) => p.item());
}

function serializeBareItem(value: BareItem): string {
  if (typeof value === "number") return String(value);
  if (value instanceof Decimal) {
    // At most three digits after the point, at least one (RFC 8941 section 4.1.5).
    const rounded = Math.round(value.value * 1000) / 1000 + 0;
    return Number.isInteger(rounded) ? `${rounded}.0` : String(rounded);
  }
  if (typeof value === "string") return `"${value.replace(/[\\"]/g, "\\$&")}"`;
  if (typeof value === "boolean") return value ? "?1" : "?0";
  if (value instanceof Token) return value.value;
  return `:${Buffer.from(value).toString("base64")}:`;
}

function serializeParams(params: Parameters): string {
  let out = "";
  for (const [key, value] of params)
    out += value === true ? `;${key}` : `;${key}=${serializeBareItem(value)}`;
  return out;
}

export function serializeMember(member: Member): string {
  if (isInnerList(member)) {
    return `(${member.items.map(serializeMember).join(" ")})${serializeParams(member.params)}`;
  }
  return `${serializeBareItem(member.value)}${serializeParams(member.params)}`;
}

export function serializeDictionary(dict: Dictionary): string {
  return [...dict]
    .map(([key, member]) =>
      !isInnerList(member) && member.value === true
        ? `${key}${serializeParams(member.params)}`
        : `${key}=${serializeMember(member)}`,
    )
    .join(", ");
}
