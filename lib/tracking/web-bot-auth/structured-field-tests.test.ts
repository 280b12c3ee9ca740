// The public conformance suite for Structured Field Values (github.com/httpwg/structured-field-tests, commit
// 1e280c3; licence and files in test/tracking/fixtures/structured-field-tests), run against the parser and
// serialiser HTTP Message Signatures uses. Signature-Input, Signature and Signature-Agent are Dictionaries or Items,
// so every case of those two field types runs: the value must parse to the expected structure (or be refused when the
// suite says it must fail), and what parsed must serialise to the canonical form, as the signature base re-serialises
// it. The suite's List cases and the Date and Display String types (added by RFC 9651, after the RFC 8941 that
// RFC 9421 builds on) are outside what a signature field holds.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import {
  Decimal,
  type Dictionary,
  type Item,
  isInnerList,
  type Member,
  parseDictionary,
  parseItem,
  serializeDictionary,
  serializeMember,
  Token,
} from "./structured-fields";

const FOLDER = join(process.cwd(), "test/tracking/fixtures/structured-field-tests");

interface SuiteCase {
  name: string;
  raw: string[];
  header_type: "item" | "list" | "dictionary";
  expected?: unknown;
  must_fail?: boolean;
  can_fail?: boolean;
  canonical?: string[];
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 with padding, the suite's form of a byte sequence. */
function base32(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += "=";
  return out;
}

/** A parsed value in the suite's JSON form. */
function bare(value: Item["value"]): unknown {
  if (value instanceof Token) return { __type: "token", value: value.value };
  if (value instanceof Decimal) return value.value;
  if (value instanceof Uint8Array) return { __type: "binary", value: base32(value) };
  return value;
}
const params = (p: Map<string, Item["value"]>) => [...p].map(([k, v]) => [k, bare(v)]);
const item = (i: Item) => [bare(i.value), params(i.params)];
const member = (m: Member) => (isInnerList(m) ? [m.items.map(item), params(m.params)] : item(m));
const dictionary = (d: Dictionary) => [...d].map(([k, m]) => [k, member(m)]);

const cases = readdirSync(FOLDER)
  .filter((f) => f.endsWith(".json.gz"))
  .sort()
  .flatMap((file) =>
    (JSON.parse(gunzipSync(readFileSync(join(FOLDER, file))).toString("utf8")) as SuiteCase[])
      .filter((c) => c.header_type !== "list")
      .map((c) => ({ ...c, file: file.replace(/\.json\.gz$/, "") })),
  );

describe("structured-field-tests: every Dictionary and Item case", () => {
  test("the suite is all here", () => {
    // A fixture lost or emptied would otherwise pass as fewer cases.
    expect(cases.filter((c) => c.header_type === "item").length).toBe(801);
    expect(cases.filter((c) => c.header_type === "dictionary").length).toBe(432);
  });

  test.each(cases)("$file: $name", (c) => {
    // Several field lines of one name are one value, joined by a comma (RFC 9110 section 5.3).
    const text = c.raw.join(", ");
    const parse = () => (c.header_type === "dictionary" ? parseDictionary(text) : parseItem(text));
    if (c.must_fail) {
      expect(parse).toThrow();
      return;
    }
    let parsed: Dictionary | Item;
    try {
      parsed = parse();
    } catch (err) {
      // A SHOULD of the RFC (for instance lenient base64 padding): refusing is allowed.
      if (c.can_fail) return;
      throw err;
    }
    const asJson = parsed instanceof Map ? dictionary(parsed) : item(parsed);
    expect(asJson).toEqual(c.expected);
    const serialized = parsed instanceof Map ? serializeDictionary(parsed) : serializeMember(parsed);
    expect(serialized).toBe((c.canonical ?? c.raw)[0] ?? "");
  });
});
