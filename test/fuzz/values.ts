import fc from "fast-check";

/**
 * Strings that have broken services before: NUL (Postgres refuses it in text and jsonb), lone
 * surrogates (jsonb refuses them), direction marks, emoji and combining marks, strings over every
 * limit, and look-alikes of the values the endpoints expect.
 */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "https://example.com/\u0000",
    "example.com\u0000",
    "\ud800",
    "\udfff",
    "x\ud83dy",
    "https://example.com/\udc00",
    "\u202eexample.com",
    "example\u200b.com",
    "\ufeff",
    "\ufffd",
    "👩‍👩‍👧‍👦🏳️‍🌈",
    "e\u0301\u0301\u0301",
    "ｅｘａｍｐｌｅ.ｃｏｍ",
    "xn--80ak6aa92e.com",
    "例え.テスト",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "http://127.0.0.1:1/",
    "http://[::1]/",
    "https://",
    "//example.com",
    "../../etc/passwd",
    "%00",
    "%ZZ",
    "'; drop table jobs; --",
    "$" + "{jndi:ldap://x}",
    "<script>alert(1)</script>",
    "null",
    "true",
    "-0",
    "1e309",
    "NaN",
    "00000000-0000-0000-0000-000000000000",
    "not-a-uuid",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc
    .tuple(
      fc.constantFrom("a", "\u0000", "\ud800", "é", "🙂", " ", "-", "9"),
      fc.integer({ min: 200, max: 20_000 }),
    )
    .map(([c, n]) => c.repeat(n)),
);

const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    1e21,
    -1e21,
    2 ** 53,
    Number.MAX_SAFE_INTEGER + 2,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    2_147_483_648,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, nested a few levels, with nasty strings as keys and leaves. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    nastyNumber,
    nastyString,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(nastyString, tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** A value of the wrong kind for almost any field. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.constantFrom(null, true, false, [], {}, [null], { "": "" }),
  jsonValue,
  fc.integer({ min: 1, max: 5_000 }).map((n) => Array.from({ length: n }, (_, i) => `item${i}`)),
  // Deep nesting: JSON.parse copes; a recursive validator must too.
  fc.integer({ min: 50, max: 3_000 }).map((depth) => {
    let v: unknown = "leaf";
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
    return v;
  }),
);

/** One change to a valid object that (nearly always) makes it invalid. */
export function nearMiss(example: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(example);
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant("x");
  return fc.oneof(
    fc.tuple(key, wrongValue).map(([k, v]) => ({ ...example, [k]: v })),
    key.map((k) => {
      const { [k]: _, ...rest } = example;
      return rest;
    }),
    fc.tuple(nastyString, wrongValue).map(([k, v]) => ({ ...example, [k]: v })),
    fc.tuple(key, nastyString).map(([k, s]) => ({ ...example, [k]: `${String(example[k])}${s}` })),
    fc.constant([example]),
    fc.constant({ ...example, __proto__: { polluted: true } }),
    fc.constant(Object.fromEntries(keys.map((k) => [k.toUpperCase(), example[k]]))),
    wrongValue,
  );
}

/** Bytes that are not the JSON they claim to be. */
export const malformedBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      "",
      "{",
      "}",
      "[",
      '{"a":',
      '{"a":1,}',
      "{'a':1}",
      "NaN",
      "undefined",
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      '{"\\u0000":1}',
      "\ufeff{}",
      '{"a":1}{"b":2}',
      "[".repeat(10_000),
      // Valid JSON nested deeper than any recursive walk of it could go.
      `${"[".repeat(200_000)}${"]".repeat(200_000)}`,
      `{"url":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`,
      `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
    )
    .map((s) => Buffer.from(s, "utf8")),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  // Invalid UTF-8: an encoded surrogate, overlong NUL, stray continuation bytes.
  fc.constantFrom(
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0x22, 0x7d]),
    Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
    Buffer.from([0x80, 0x81, 0x82]),
  ),
);

/** A header value Node's HTTP client will send: visible Latin-1, tabs, spaces, and long runs. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", " ", "\t", "null", "Bearer", "Bearer :", "Bearer a:b:c", "é", "\u00ff".repeat(64)),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  fc.integer({ min: 256, max: 12_000 }).map((n) => "k".repeat(n)),
);
