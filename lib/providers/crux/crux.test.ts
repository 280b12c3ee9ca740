import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { fetchFieldData } from "@/lib/cwv/field";
import { type FakeCrux, makeCruxRecord, startFakeCrux } from "@/test/fakes/crux";
import { CRUX_METRICS, queryCruxRecord } from "./client";

let crux: FakeCrux;
beforeAll(async () => {
  crux = await startFakeCrux();
  crux.records.set(
    "url:https://shop.example/product",
    makeCruxRecord(
      { url: "https://shop.example/product", formFactor: "PHONE" },
      { lcp: 3120, inp: 240, cls: "0.27", fcp: 1650, ttfb: 910 },
    ),
  );
  crux.records.set(
    "origin:https://blog.example",
    makeCruxRecord(
      { origin: "https://blog.example", formFactor: "DESKTOP" },
      { lcp: 1900, inp: 80, cls: "0.02", fcp: 900, ttfb: 400 },
    ),
  );
});
afterAll(() => crux.close());
beforeEach(() => {
  crux.requests.length = 0;
});

const config = () => ({ apiKey: crux.apiKey, baseUrl: crux.url });

describe("queryCruxRecord", () => {
  test("asks for the URL on the form factor with the five metrics and reads p75, CLS from its string", async () => {
    const lookup = await queryCruxRecord(config(), "https://shop.example/product", "PHONE");
    expect(crux.requests).toEqual([
      {
        key: crux.apiKey,
        body: { url: "https://shop.example/product", formFactor: "PHONE", metrics: [...CRUX_METRICS] },
      },
    ]);
    if (!lookup.ok) throw new Error(lookup.reason);
    expect(lookup.urlMissing).toBe(false);
    expect(lookup.record.level).toBe("url");
    expect(lookup.record.metrics.cumulative_layout_shift?.p75).toBe(0.27);
    expect(lookup.record.metrics.largest_contentful_paint?.p75).toBe(3120);
    expect(lookup.record.metrics.cumulative_layout_shift?.histogram[2]).toEqual({
      start: 0.25,
      end: null,
      density: 0.0775,
    });
    expect(lookup.record.collectionPeriod).toEqual({ firstDate: "2026-10-25", lastDate: "2026-11-21" });
  });

  test("falls back to the origin after a 404 for the URL", async () => {
    const lookup = await queryCruxRecord(config(), "https://blog.example/posts/1", "DESKTOP");
    expect(crux.requests.map((r) => r.body)).toEqual([
      { url: "https://blog.example/posts/1", formFactor: "DESKTOP", metrics: [...CRUX_METRICS] },
      { origin: "https://blog.example", formFactor: "DESKTOP", metrics: [...CRUX_METRICS] },
    ]);
    if (!lookup.ok) throw new Error(lookup.reason);
    expect(lookup.urlMissing).toBe(true);
    expect(lookup.record.level).toBe("origin");
    expect(lookup.record.key).toBe("https://blog.example");
  });

  test("says so when neither the URL nor its origin has data", async () => {
    const lookup = await queryCruxRecord(config(), "https://tiny.example/", "PHONE");
    expect(lookup).toMatchObject({ ok: false, status: 404 });
    expect(!lookup.ok && lookup.reason).toContain("no phone data");
  });

  test("passes Google's error message on, without a fallback, for other errors", async () => {
    const lookup = await queryCruxRecord(
      { ...config(), apiKey: "wrong" },
      "https://shop.example/product",
      "PHONE",
    );
    expect(crux.requests).toHaveLength(1);
    expect(lookup).toEqual({
      ok: false,
      status: 400,
      reason: "The Chrome UX Report API answered HTTP 400: API key not valid. Please pass a valid API key.",
    });
  });

  test("reports an unreachable API as a reason, not a throw", async () => {
    const lookup = await queryCruxRecord(
      { apiKey: "k", baseUrl: "http://127.0.0.1:1" },
      "https://a.example/",
      "PHONE",
    );
    expect(lookup).toEqual({ ok: false, reason: "The Chrome UX Report API could not be reached." });
  });
});

describe("fetchFieldData", () => {
  const signal = new AbortController().signal;

  test("is null with the reason when no key is configured", async () => {
    const outcome = await fetchFieldData("https://shop.example/product", "mobile", { env: {}, signal });
    expect(outcome.field).toBeNull();
    // Customers read it: what is missing in words, never the setting.
    expect(outcome.reason).toContain("not offered on this service yet");
    expect(outcome.reason).not.toContain("CRUX_API_KEY");
    expect(crux.requests).toHaveLength(0);
  });

  test("rates the p75 values by Google's thresholds", async () => {
    const env = { CRUX_API_KEY: crux.apiKey, CRUX_BASE_URL: crux.url };
    const { field } = await fetchFieldData("https://shop.example/product", "mobile", { env, signal });
    expect(field).toMatchObject({
      level: "url",
      formFactor: "PHONE",
      note: null,
      lcp: { p75: 3120, rating: "needs-improvement" },
      inp: { p75: 240, rating: "needs-improvement" },
      cls: { p75: 0.27, rating: "poor" },
      fcp: { p75: 1650, rating: "good" },
      ttfb: { p75: 910, rating: "needs-improvement" },
    });
  });

  test("says when the origin answered for the page", async () => {
    const env = { CRUX_API_KEY: crux.apiKey, CRUX_BASE_URL: crux.url };
    const { field } = await fetchFieldData("https://blog.example/posts/1", "desktop", { env, signal });
    expect(field?.level).toBe("origin");
    expect(field?.formFactor).toBe("DESKTOP");
    expect(field?.note).toContain("whole origin (https://blog.example)");
  });
});
