import { describe, expect, test } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { httpStatus } from "./errors";
import { checkPathParams, parseJson, parseQuery, parseValue, queryInt, readJson, requireUuid } from "./parse";

const body = z.object({ url: z.string().url(), n: z.number().int().optional() }).strict();

function post(payload: BodyInit | null, contentType: string | null, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...extra };
  if (contentType) headers["content-type"] = contentType;
  return new Request("http://127.0.0.1/x", { method: "POST", body: payload, headers });
}

async function errorOf(fn: () => Promise<unknown> | unknown): Promise<AppError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected an AppError");
}

describe("parseJson", () => {
  const cases: { name: string; req: () => Request; field: string; reason?: string }[] = [
    {
      name: "no content type",
      req: () => post('{"url":"https://a.b"}', null),
      field: "content-type",
      reason: "unsupported_content_type",
    },
    {
      name: "form content type",
      req: () => post("url=x", "application/x-www-form-urlencoded"),
      field: "content-type",
    },
    { name: "text/plain", req: () => post('{"url":"https://a.b"}', "text/plain"), field: "content-type" },
    {
      name: "malformed JSON",
      req: () => post('{"url":', "application/json"),
      field: "body",
      reason: "malformed_json",
    },
    { name: "empty body", req: () => post("", "application/json"), field: "body", reason: "malformed_json" },
    { name: "JSON array", req: () => post("[]", "application/json"), field: "body" },
    { name: "missing field", req: () => post("{}", "application/json"), field: "url" },
    { name: "wrong type", req: () => post('{"url":42}', "application/json"), field: "url" },
    { name: "not a URL", req: () => post('{"url":"nope"}', "application/json"), field: "url" },
    {
      name: "nested wrong type",
      req: () => post('{"url":"https://a.b","n":"3"}', "application/json"),
      field: "n",
    },
    {
      name: "unknown field",
      req: () => post('{"url":"https://a.b","x":1}', "application/json"),
      field: "body",
    },
    {
      name: "body over 1 MB",
      req: () =>
        post(JSON.stringify({ url: "https://a.b", pad: "x".repeat(1024 * 1024) }), "application/json"),
      field: "body",
      reason: "body_too_large",
    },
    {
      name: "declared length over 1 MB",
      req: () => post("{}", "application/json", { "content-length": String(2 * 1024 * 1024) }),
      field: "body",
      reason: "body_too_large",
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const err = await errorOf(() => parseJson(c.req(), body));
      expect(err.code).toBe("VALIDATION_ERROR");
      expect(httpStatus(err.code)).toBe(400);
      expect(err.details.field).toBe(c.field);
      expect((err.details.issues as { message: string }[])[0]!.message).toBeTruthy();
      if (c.reason) expect(err.details.reason).toBe(c.reason);
    });
  }

  test("a good body parses, with charset and +json types", async () => {
    await expect(
      parseJson(post('{"url":"https://a.b"}', "application/json; charset=utf-8"), body),
    ).resolves.toEqual({
      url: "https://a.b",
    });
    await expect(
      parseJson(post('{"url":"https://a.b"}', "application/merge-patch+json"), body),
    ).resolves.toBeTruthy();
  });
});

describe("parseQuery", () => {
  const schema = z.object({ days: queryInt(1, 90, 30), domain: z.string().min(1) });
  const cases: { name: string; qs: string; field: string }[] = [
    { name: "unknown parameter", qs: "domain=a.com&dayz=3", field: "dayz" },
    { name: "repeated parameter", qs: "domain=a.com&days=3&days=4", field: "days" },
    { name: "not a number", qs: "domain=a.com&days=ten", field: "days" },
    { name: "negative", qs: "domain=a.com&days=-1", field: "days" },
    { name: "fraction", qs: "domain=a.com&days=1.5", field: "days" },
    { name: "above max", qs: "domain=a.com&days=91", field: "days" },
    { name: "zero", qs: "domain=a.com&days=0", field: "days" },
    { name: "missing required", qs: "days=3", field: "domain" },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const err = await errorOf(() => parseQuery(new URL(`http://h/p?${c.qs}`), schema));
      expect(err.code).toBe("VALIDATION_ERROR");
      expect(err.details.field).toBe(c.field);
    });
  }
  test("defaults and bounds", () => {
    expect(parseQuery(new URL("http://h/p?domain=a.com"), schema)).toEqual({ domain: "a.com", days: 30 });
    expect(parseQuery(new URL("http://h/p?domain=a.com&days=90"), schema)).toEqual({
      domain: "a.com",
      days: 90,
    });
  });
});

test("requireUuid: only UUIDs name anything", async () => {
  expect(requireUuid("5F0C1E5E-3F7E-4A6E-9A43-0F6F1F1F1F1F", "Job")).toBe(
    "5f0c1e5e-3f7e-4a6e-9a43-0f6f1f1f1f1f",
  );
  for (const bad of ["", "123", "5f0c1e5e-3f7e-4a6e-9a43-0f6f1f1f1f1", "../etc/passwd"]) {
    expect((await errorOf(() => requireUuid(bad, "Job"))).code).toBe("NOT_FOUND");
  }
});

describe("NUL and unpaired surrogates are refused wherever text comes in", () => {
  const schema = z.object({ url: z.string(), tags: z.array(z.object({ name: z.string() })).optional() });
  const json = (text: string) => post(text, "application/json");
  const cases: { name: string; run: () => Promise<unknown> | unknown; field: string }[] = [
    {
      name: "NUL in a field",
      run: () => parseJson(json('{"url":"https://a.b/\\u0000"}'), schema),
      field: "url",
    },
    {
      name: "lone high surrogate at depth",
      run: () => parseJson(json('{"url":"x","tags":[{"name":"ok"},{"name":"a\\ud800"}]}'), schema),
      field: "tags.1.name",
    },
    { name: "lone low surrogate", run: () => parseJson(json('{"url":"\\udc00x"}'), schema), field: "url" },
    {
      name: "lone surrogate escaped in capitals",
      run: () => readJson(json('{"u":["\\uDBFF"]}')),
      field: "u.0",
    },
    {
      name: "lone surrogate after an escaped backslash and a pair",
      run: () => readJson(json('{"a":"\\\\ \\uD83D\\uDE00","b":"\\uDe00"}')),
      field: "b",
    },
    { name: "NUL in a key", run: () => readJson(json('{"a":{"b\\u0000":1}}')), field: "a.b\\u0000" },
    { name: "NUL as the whole body", run: () => readJson(json('"\\u0000"')), field: "body" },
    {
      name: "a body the service validates itself",
      run: () => readJson(json('{"events":[{"userAgent":"GPTBot\\u0000"}]}')),
      field: "events.0.userAgent",
    },
    {
      name: "NUL in a query value",
      run: () => parseQuery(new URL("http://h/p?url=a%00"), schema),
      field: "url",
    },
    {
      name: "NUL in a query key",
      run: () => parseQuery(new URL("http://h/p?u%00rl=a"), schema),
      field: "u\\u0000rl",
    },
    {
      name: "NUL in a path parameter",
      run: () => checkPathParams({ domain: "a.com\u0000" }),
      field: "domain",
    },
    { name: "in a catch-all segment", run: () => checkPathParams({ path: ["a", "\ud800"] }), field: "path" },
    { name: "parseValue (MCP arguments)", run: () => parseValue(schema, { url: "a\u0000" }), field: "url" },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const err = await errorOf(c.run);
      expect(err.code).toBe("VALIDATION_ERROR");
      expect(err.details.field).toBe(c.field);
      expect(err.details.reason).toBe("unsafe_characters");
    });
  }

  test("paired surrogates, emoji, RTL marks and U+FFFD are ordinary text", async () => {
    const text = "👩‍👩‍👧 \u202e\u200f \ufffd é";
    await expect(parseJson(json(JSON.stringify({ url: text })), schema)).resolves.toEqual({ url: text });
    expect(checkPathParams({ domain: "例え.テスト" })).toEqual({ domain: "例え.テスト" });
  });

  test("a route without dynamic segments (Next passes no params) has nothing to check", () => {
    expect(checkPathParams(undefined)).toEqual({});
  });

  test("JSON nested 200,000 deep is walked without overflowing the stack", async () => {
    const deep = `{"url":${"[".repeat(200_000)}"\\u0000"${"]".repeat(200_000)}}`;
    const err = await errorOf(() => readJson(json(deep)));
    expect(err.details.field).toBe(`url.${Array(98).fill("0").join(".")}.…`);
  });
});
