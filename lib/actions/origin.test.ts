import { describe, expect, test } from "vitest";
import { configuredOrigins, isSameOriginRequest } from "./origin";

const h = (init: Record<string, string>) => new Headers(init);

describe("isSameOriginRequest", () => {
  const cases: { name: string; headers: Record<string, string>; trusted?: string[]; ok: boolean }[] = [
    {
      name: "Origin matches Host",
      headers: { origin: "https://app.example", host: "app.example" },
      ok: true,
    },
    {
      name: "port is part of the host",
      headers: { origin: "http://localhost:3000", host: "localhost:3000" },
      ok: true,
    },
    {
      name: "host case does not matter",
      headers: { origin: "https://App.Example", host: "app.example" },
      ok: true,
    },
    { name: "another site", headers: { origin: "https://evil.example", host: "app.example" }, ok: false },
    {
      name: "a sibling subdomain",
      headers: { origin: "https://x.app.example", host: "app.example" },
      ok: false,
    },
    {
      name: "same host, other port",
      headers: { origin: "http://app.example:8080", host: "app.example" },
      ok: false,
    },
    { name: "no Origin header", headers: { host: "app.example" }, ok: false },
    { name: "opaque Origin (sandboxed frame)", headers: { origin: "null", host: "app.example" }, ok: false },
    { name: "malformed Origin", headers: { origin: "not a url", host: "app.example" }, ok: false },
    {
      name: "the host a proxy forwarded",
      headers: {
        origin: "https://public.example",
        host: "10.0.0.5:3000",
        "x-forwarded-host": "public.example",
      },
      ok: true,
    },
    {
      name: "a configured origin behind a proxy that rewrites Host",
      headers: { origin: "https://public.example", host: "internal:3000" },
      trusted: ["https://public.example"],
      ok: true,
    },
    {
      name: "a configured origin's host over another scheme",
      headers: { origin: "http://public.example", host: "internal:3000" },
      trusted: ["https://public.example"],
      ok: false,
    },
  ];
  for (const c of cases) {
    test(c.name, () => expect(isSameOriginRequest(h(c.headers), c.trusted ?? [])).toBe(c.ok));
  }
});

test("configuredOrigins reads AUTH_URL and PUBLIC_BASE_URL and skips malformed values", () => {
  expect(configuredOrigins({ AUTH_URL: "https://a.example/x", PUBLIC_BASE_URL: "::bad" })).toEqual([
    "https://a.example",
  ]);
});
