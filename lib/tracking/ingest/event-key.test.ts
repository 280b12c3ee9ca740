import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { eventKey, makeTrackingEventSchema } from "./event-schema";

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

describe("eventKey", () => {
  const parse = (input: Record<string, unknown>) => schema.parse(input);

  test("is the client id when one is given", () => {
    expect(eventKey(parse({ ...VALID, id: "evt_123" }))).toBe("id:evt_123");
  });

  test("is stable across retries and equivalent spellings", () => {
    const a = eventKey(parse(VALID));
    const b = eventKey(
      parse({
        ...VALID,
        domain: "EXAMPLE.com",
        path: "https://example.com/pricing?utm_source=chatgpt.com",
        timestamp: "2026-11-22T12:59:00+01:00",
      }),
    );
    expect(b).toBe(a);
  });

  test("differs when any counted field differs", () => {
    const base = eventKey(parse(VALID));
    const variants = [
      { path: "/other" },
      { userAgent: "curl/8.4.0" },
      { ip: "20.171.206.11" },
      { referrer: undefined },
      { status: 404 },
      { timestamp: "2026-11-22T11:59:00.001Z" },
      { domain: "example.org" },
    ];
    const keys = variants.map((v) => eventKey(parse({ ...VALID, ...v })));
    expect(new Set([base, ...keys]).size).toBe(variants.length + 1);
  });

  test("a client id that looks like a hash cannot collide with a computed key", () => {
    const computed = eventKey(parse(VALID));
    expect(eventKey(parse({ ...VALID, id: computed }))).not.toBe(computed);
    expect(eventKey(parse({ ...VALID, id: computed.slice("t:".length) }))).not.toBe(computed);
  });

  test("is 66 bits of the SHA-256 of its fields, its time included (base64url)", () => {
    const event = parse(VALID);
    const fields = [
      VALID.domain,
      "/pricing?utm_source=chatgpt.com",
      VALID.userAgent,
      VALID.ip,
      VALID.referrer,
      200,
    ];
    const digest = createHash("sha256")
      .update(JSON.stringify([...fields, "2026-11-22T11:59:00.000Z"]))
      .digest();
    expect(eventKey(event)).toBe(`t:${digest.toString("base64url").slice(0, 11)}`);
  });

  // The visits' primary key (domain, time, key) orders them by time; the key only tells apart the events of one
  // millisecond, so it no longer carries the time.
  test("the same fields at another time, before 1970 or after 10889 too, are another key", () => {
    const keyAt = (ms: number) =>
      eventKey({
        domain: "example.com",
        path: "/p",
        userAgent: "GPTBot",
        ip: undefined,
        referrer: undefined,
        status: undefined,
        timestamp: new Date(ms),
      });
    const times = [
      -1,
      0,
      1,
      Date.parse("2026-11-22T11:59:00Z"),
      Date.parse("2026-11-22T11:59:00.001Z"),
      0x1000000000000,
    ];
    const keys = times.map(keyAt);
    expect(new Set(keys).size).toBe(times.length);
    for (const key of keys) expect(key).toMatch(/^t:[A-Za-z0-9_-]{11}$/);
  });
});
