import { describe, expect, test } from "vitest";
import { eventKey, makeTrackingEventSchema, validateEvents } from "./event-schema";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const now = () => NOW;
const schema = makeTrackingEventSchema(now);

const VALID = {
  domain: "example.com",
  path: "/pricing?utm_source=chatgpt.com",
  userAgent: "Mozilla/5.0 (compatible; GPTBot/1.1)",
  ip: "20.171.206.10",
  referrer: "https://chatgpt.com/",
  status: 200,
  timestamp: "2026-11-22T11:59:00Z",
};

function fieldErrors(input: Record<string, unknown>) {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((i) => i.path.join("."));
}

describe("trackingEventSchema", () => {
  test("accepts and normalises a valid event", () => {
    const event = schema.parse({
      ...VALID,
      domain: "WWW.Example.COM.",
      ip: "2001:0DB8::0001",
      timestamp: "2026-11-22T13:59:00+02:00",
    });
    expect(event).toEqual({
      domain: "www.example.com",
      path: "/pricing?utm_source=chatgpt.com",
      userAgent: VALID.userAgent,
      ip: "2001:db8::1",
      referrer: "https://chatgpt.com/",
      status: 200,
      timestamp: new Date("2026-11-22T11:59:00Z"),
    });
  });

  test("only domain, path, userAgent and timestamp are required", () => {
    const event = schema.parse({
      domain: "example.com",
      path: "/",
      userAgent: "",
      timestamp: "2026-11-22T11:00:00.123Z",
    });
    expect(event).toEqual({
      domain: "example.com",
      path: "/",
      userAgent: "",
      timestamp: new Date("2026-11-22T11:00:00.123Z"),
    });
  });

  test("nulls for optional fields are accepted as absent", () => {
    const event = schema.parse({ ...VALID, ip: null, referrer: null, status: null });
    expect(event.ip).toBeUndefined();
    expect(event.referrer).toBeUndefined();
    expect(event.status).toBeUndefined();
  });

  test("an absolute URL path is reduced to its path and query", () => {
    expect(schema.parse({ ...VALID, path: "https://example.com/a/b?c=1#top" }).path).toBe("/a/b?c=1");
    expect(schema.parse({ ...VALID, path: "/a#top" }).path).toBe("/a");
  });

  test("IDN domains become punycode; IPv4-mapped addresses become IPv4", () => {
    expect(schema.parse({ ...VALID, domain: "bücher.example" }).domain).toBe("xn--bcher-kva.example");
    expect(schema.parse({ ...VALID, ip: "::ffff:20.171.206.10" }).ip).toBe("20.171.206.10");
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["client id too long", { ...VALID, id: "x".repeat(129) }, "id"],
    ["empty client id", { ...VALID, id: "" }, "id"],
    ["missing domain", { ...VALID, domain: undefined }, "domain"],
    ["domain with a path", { ...VALID, domain: "example.com/blog" }, "domain"],
    ["domain as a URL", { ...VALID, domain: "https://example.com" }, "domain"],
    ["domain with a port", { ...VALID, domain: "example.com:8080" }, "domain"],
    ["domain label starting with a dash", { ...VALID, domain: "-bad.example.com" }, "domain"],
    ["domain too long", { ...VALID, domain: `${`${"a".repeat(63)}.`.repeat(4)}com` }, "domain"],
    ["relative path", { ...VALID, path: "pricing" }, "path"],
    ["ftp URL as path", { ...VALID, path: "ftp://example.com/file" }, "path"],
    ["path too long", { ...VALID, path: `/${"a".repeat(2048)}` }, "path"],
    ["user agent too long", { ...VALID, userAgent: "a".repeat(1025) }, "userAgent"],
    ["user agent missing", { ...VALID, userAgent: undefined }, "userAgent"],
    ["ip not an address", { ...VALID, ip: "crawler.example.com" }, "ip"],
    ["ip short form", { ...VALID, ip: "127.1" }, "ip"],
    ["referrer too long", { ...VALID, referrer: `https://a.com/${"a".repeat(2048)}` }, "referrer"],
    ["status below 100", { ...VALID, status: 99 }, "status"],
    ["status above 599", { ...VALID, status: 600 }, "status"],
    ["status not an integer", { ...VALID, status: 200.5 }, "status"],
    ["status as a string", { ...VALID, status: "200" }, "status"],
    ["timestamp without a zone", { ...VALID, timestamp: "2026-11-22T11:59:00" }, "timestamp"],
    ["timestamp as a date only", { ...VALID, timestamp: "2026-11-22" }, "timestamp"],
    ["timestamp as epoch millis", { ...VALID, timestamp: NOW }, "timestamp"],
    ["timestamp 6 minutes ahead", { ...VALID, timestamp: "2026-11-22T12:06:00Z" }, "timestamp"],
    ["timestamp 91 days old", { ...VALID, timestamp: "2026-08-23T11:00:00Z" }, "timestamp"],
  ];
  for (const [name, input, field] of invalid) {
    test(`rejects: ${name}`, () => expect(fieldErrors(input)).toContain(field));
  }

  test("the time window's edges are inside it", () => {
    expect(fieldErrors({ ...VALID, timestamp: "2026-11-22T12:05:00Z" })).toEqual([]);
    expect(fieldErrors({ ...VALID, timestamp: "2026-08-24T12:00:01Z" })).toEqual([]);
  });
});

describe("a signed request's fields", () => {
  const SIGNED = {
    ...VALID,
    signature: "sig1=:AAAA:",
    signatureInput: 'sig1=("@authority");created=1;expires=2;keyid="k";tag="web-bot-auth"',
    signatureAgent: 'sig1="https://agent.example"',
    host: "Example.com:8443",
    method: "get",
  };

  test("travel with the event as received (host lower-cased, method upper-cased), and are optional", () => {
    const result = validateEvents({ events: [SIGNED, VALID] }, { now });
    if (!result.ok) throw new Error("expected a valid batch");
    expect(result.rejected).toEqual([]);
    expect(result.accepted[0]?.event).toMatchObject({
      signature: SIGNED.signature,
      signatureInput: SIGNED.signatureInput,
      signatureAgent: SIGNED.signatureAgent,
      host: "example.com:8443",
      method: "GET",
    });
    expect(result.accepted[1]?.event).not.toHaveProperty("signature");
    // They are not part of a visit's identity: the same request signed or not is one event.
    expect(result.accepted[0]?.key).toBe(result.accepted[1]?.key);
  });

  test.each([
    ["host", "not a host"],
    ["host", "example.com/path"],
    ["method", "GET /"],
    ["signature", "x".repeat(4097)],
    ["signatureAgent", 42],
  ])("%s = %j is rejected alone", (field, value) => {
    const result = validateEvents({ events: [{ ...SIGNED, [field]: value }, VALID] }, { now });
    if (!result.ok) throw new Error("expected a valid batch");
    expect(result.rejected).toEqual([{ index: 0, errors: [expect.objectContaining({ field })] }]);
    expect(result.accepted.map((a) => a.index)).toEqual([1]);
  });
});

describe("validateEvents", () => {
  test("one bad event is rejected alone, with its index and fields", () => {
    const result = validateEvents(
      {
        events: [VALID, { ...VALID, status: 700, ip: "nope" }, { ...VALID, path: "/other" }, "not an object"],
      },
      { now },
    );
    if (!result.ok) throw new Error("envelope should be valid");
    expect(result.accepted.map((a) => a.index)).toEqual([0, 2]);
    expect(result.rejected).toEqual([
      {
        index: 1,
        errors: [
          { field: "ip", message: "must be an IPv4 or IPv6 address" },
          { field: "status", message: expect.any(String) },
        ],
      },
      { index: 3, errors: [{ field: "(event)", message: expect.any(String) }] },
    ]);
    expect(result.accepted[0]?.key).toMatch(/^t:[A-Za-z0-9_-]{11}$/);
  });

  test.each([
    ["not an object", "hello"],
    ["no events", {}],
    ["events not an array", { events: {} }],
    ["empty batch", { events: [] }],
    ["1001 events", { events: Array.from({ length: 1001 }, () => VALID) }],
    ["null", null],
    ["an array of events", [VALID]],
    ["events a string", { events: "x" }],
  ])("rejects the whole batch: %s", (_, body) => {
    const result = validateEvents(body, { now });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.length).toBeGreaterThan(0);
  });

  test("an envelope with other keys beside its events, or a single event, is a batch", () => {
    const result = validateEvents({ events: [VALID], note: "ignored" }, { now });
    expect(result.ok && result.accepted.length).toBe(1);
  });

  test("1000 events is the limit, not over it", () => {
    const result = validateEvents({ events: Array.from({ length: 1000 }, () => VALID) }, { now });
    expect(result.ok && result.accepted.length).toBe(1000);
  });
});

describe("validateEvents answers as the schema does, event by event", () => {
  // validateEvents takes plainly valid events without running the schema; the schema words every rejection.
  // Each variant changes one field of a valid event; the batch's answer must be the schema's, field for field.
  const variants: Record<string, unknown[]> = {
    id: [undefined, "", "a", "x".repeat(128), "x".repeat(129), 7, null],
    domain: [
      "example.com",
      "WWW.Example.COM.",
      " example.com ",
      "bücher.example",
      "https://example.com",
      "exa mple.com",
      "",
      "localhost",
      "127.0.0.1",
      "-bad.com",
      "a".repeat(254),
      42,
      null,
      undefined,
    ],
    path: [
      "/",
      "/a?b#c",
      "https://example.com/x?y",
      "HTTP://example.com",
      "ftp://x/y",
      "relative",
      "",
      `/${"p".repeat(2047)}`,
      `/${"p".repeat(2048)}`,
      5,
      null,
    ],
    userAgent: ["", "GPTBot/1.1", "u".repeat(1024), "u".repeat(1025), null, undefined, 3],
    ip: [
      undefined,
      null,
      "",
      "20.171.206.10",
      " 20.171.206.10 ",
      "2001:0DB8::0001",
      "::ffff:1.2.3.4",
      "1.2.3",
      "0x7f.0.0.1",
      "999.1.1.1",
      7,
    ],
    referrer: [undefined, null, "", "https://chatgpt.com/", "r".repeat(2048), "r".repeat(2049), 1],
    status: [undefined, null, 100, 599, 99, 600, 200.5, "200", Number.MAX_SAFE_INTEGER + 2],
    timestamp: [
      "2026-11-22T11:59:00Z",
      "2026-11-22T13:59:00+02:00",
      "2026-11-22T11:59:00.123456Z",
      "2026-11-22T11:59:00",
      "2026-11-22 11:59:00Z",
      "2026-02-30T11:59:00Z",
      "2024-02-29T11:59:00Z",
      "2026-11-22T12:06:00Z",
      "2026-08-01T00:00:00Z",
      "2026-11-22T11:59:00+24:00",
      1732276740000,
      null,
      undefined,
    ],
  };
  const events: unknown[] = [null, "event", [VALID], { ...VALID, extra: "ignored" }];
  for (const [field, values] of Object.entries(variants)) {
    for (const value of values) {
      const event: Record<string, unknown> = { ...VALID };
      if (value === undefined) delete event[field];
      else event[field] = value;
      events.push(event);
    }
  }

  test(`${events.length} variants`, () => {
    const result = validateEvents({ events }, { now });
    if (!result.ok) throw new Error("the envelope is valid");
    const accepted = new Map(result.accepted.map((a) => [a.index, a]));
    const rejected = new Map(result.rejected.map((r) => [r.index, r]));
    let acceptedCount = 0;
    events.forEach((raw, index) => {
      const expected = schema.safeParse(raw);
      if (expected.success) {
        acceptedCount++;
        expect(rejected.has(index), `event ${index}`).toBe(false);
        expect(accepted.get(index)?.event, `event ${index}`).toEqual(expected.data);
        expect(accepted.get(index)?.key).toBe(eventKey(expected.data));
      } else {
        expect(accepted.has(index), `event ${index}: ${JSON.stringify(raw)?.slice(0, 80)}`).toBe(false);
        expect(rejected.get(index)?.errors.length).toBe(expected.error.issues.length);
      }
    });
    // Both kinds are represented, so neither half of the comparison is vacuous.
    expect(acceptedCount).toBeGreaterThan(25);
    expect(events.length - acceptedCount).toBeGreaterThan(25);
  });
});
