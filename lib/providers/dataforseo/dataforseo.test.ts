import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { keywordMetricsAvailability, runKeywordMetrics } from "@/lib/keywords/keyword-metrics";
import { type FakeDataForSeo, startFakeDataForSeo } from "@/test/fakes/dataforseo";
import { fetchBacklinkProfile } from "./backlinks";
import { classifyStatus, DataForSeoError, readDataForSeoConfig } from "./client";
import { fetchKeywordIdeas } from "./keywords";

let fake: FakeDataForSeo;
let env: Record<string, string>;
const signal = new AbortController().signal;

beforeAll(async () => {
  fake = await startFakeDataForSeo({
    keywords: [
      { keyword: "cold brew coffee", searchVolume: 74000, cpc: 1.2, difficulty: 48, intent: "informational" },
      { keyword: "cold brew maker", searchVolume: 22000, cpc: 0.9, difficulty: 35, intent: "commercial" },
      {
        keyword: "buy cold brew concentrate",
        searchVolume: 1900,
        cpc: 1.8,
        difficulty: 20,
        intent: "transactional",
      },
    ],
  });
  env = { DATAFORSEO_LOGIN: fake.login, DATAFORSEO_PASSWORD: fake.password, DATAFORSEO_BASE_URL: fake.url };
});
afterAll(() => fake?.close());

describe("configuration", () => {
  test("needs both login and password; the base URL defaults to the public API", () => {
    expect(readDataForSeoConfig({ DATAFORSEO_LOGIN: "a" })).toBeNull();
    expect(readDataForSeoConfig({ DATAFORSEO_LOGIN: "a", DATAFORSEO_PASSWORD: "b" })?.baseUrl).toBe(
      "https://api.dataforseo.com",
    );
    const off = keywordMetricsAvailability({});
    expect(off.ok).toBe(false);
    if (!off.ok) expect(off.reason).toContain("DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD");
    expect(keywordMetricsAvailability(env)).toEqual({ ok: true });
  });

  const statuses: [number, string | null][] = [
    [20000, null],
    [40100, "DATAFORSEO_AUTH_FAILED"],
    [40200, "DATAFORSEO_PAYMENT_REQUIRED"],
    [40210, "DATAFORSEO_PAYMENT_REQUIRED"],
    [40202, "DATAFORSEO_RATE_LIMITED"],
    [40501, "DATAFORSEO_INVALID_REQUEST"],
    [40400, "DATAFORSEO_NOT_FOUND"],
    [50000, "DATAFORSEO_SERVER_ERROR"],
  ];
  for (const [status, code] of statuses) {
    test(`status ${status} → ${code ?? "success"}`, () => expect(classifyStatus(status)).toBe(code));
  }
});

describe("runKeywordMetrics", () => {
  test("returns the provider's figures per keyword in the order asked, nulls where it has none", async () => {
    const r = await runKeywordMetrics(
      {
        keywords: ["Cold Brew Coffee", "unknown phrase", "cold brew maker", "cold brew coffee"],
        language: "en",
      },
      { signal, env },
    );
    expect(r.source).toBe("dataforseo");
    expect(r.keywords.map((k) => [k.keyword.toLowerCase(), k.searchVolume, k.difficulty, k.intent])).toEqual([
      ["cold brew coffee", 74000, 48, "informational"],
      ["unknown phrase", null, null, null],
      ["cold brew maker", 22000, 35, "commercial"],
    ]);
    const trend = r.keywords[0]!.trend;
    expect(trend).toHaveLength(12);
    // Oldest first, whatever order the provider lists the months in.
    expect(trend[0]).toEqual({ year: 2024, month: 8, searchVolume: 74110 });
    expect(trend[11]).toEqual({ year: 2025, month: 7, searchVolume: 74000 });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe("/v3/dataforseo_labs/google/keyword_overview/live");
    expect(sent.body).toEqual([
      expect.objectContaining({
        keywords: ["cold brew coffee", "unknown phrase", "cold brew maker"],
        location_code: 2840,
        language_code: "en",
      }),
    ]);
  });

  test("a task-level 40501 fails with DATAFORSEO_INVALID_REQUEST and the provider's message", async () => {
    const other = await startFakeDataForSeo({ keywords: [] });
    other.failTask(
      "/v3/dataforseo_labs/google/keyword_overview/live",
      40501,
      "Invalid Field: 'language_code'.",
    );
    try {
      const run = runKeywordMetrics(
        { keywords: ["x"] },
        {
          signal,
          env: {
            DATAFORSEO_LOGIN: other.login,
            DATAFORSEO_PASSWORD: other.password,
            DATAFORSEO_BASE_URL: other.url,
          },
        },
      );
      await expect(run).rejects.toMatchObject({ code: "DATAFORSEO_INVALID_REQUEST", statusCode: 40501 });
      await expect(run).rejects.toThrow("Invalid Field: 'language_code'.");
    } finally {
      await other.close();
    }
  });

  test("wrong credentials fail with DATAFORSEO_AUTH_FAILED", async () => {
    const run = runKeywordMetrics(
      { keywords: ["x"] },
      { signal, env: { ...env, DATAFORSEO_PASSWORD: "wrong" } },
    );
    await expect(run).rejects.toBeInstanceOf(DataForSeoError);
    await expect(run).rejects.toMatchObject({ code: "DATAFORSEO_AUTH_FAILED", statusCode: 401 });
  });

  test("an unreachable provider fails with DATAFORSEO_UNREACHABLE", async () => {
    const run = runKeywordMetrics(
      { keywords: ["x"] },
      { signal, env: { ...env, DATAFORSEO_BASE_URL: "http://127.0.0.1:1" } },
    );
    await expect(run).rejects.toMatchObject({ code: "DATAFORSEO_UNREACHABLE" });
  });
});

describe("keyword ideas and backlinks", () => {
  test("ideas come best-searched first; 40102 No Search Results is an empty list", async () => {
    const config = readDataForSeoConfig(env)!;
    const { ideas } = await fetchKeywordIdeas(config, ["cold brew"], { limit: 10 });
    expect(ideas.map((i) => i.keyword)).toEqual([
      "cold brew coffee",
      "cold brew maker",
      "buy cold brew concentrate",
    ]);
    expect((await fetchKeywordIdeas(config, ["zebra"], {})).ideas).toEqual([]);
  });

  test("the backlink profile merges summary, anchors, referring domains and new/lost links", async () => {
    const config = readDataForSeoConfig(env)!;
    const { profile, cost } = await fetchBacklinkProfile(config, "example.com", {
      now: new Date("2025-08-15T00:00:00Z"),
    });
    expect(profile).toMatchObject({
      rank: 412,
      backlinks: 1520,
      nofollowBacklinks: 220,
      dofollowBacklinks: 1300,
      referringDomains: 87,
      referringMainDomains: 80,
    });
    expect(profile.topAnchors[0]).toEqual({
      anchor: "cold brew guide",
      backlinks: 300,
      referringDomains: 25,
    });
    expect(profile.topReferringDomains.map((d) => d.domain)).toEqual(["wikipedia.org", "news-daily.com"]);
    expect(profile.newLost.map((m) => m.date)).toEqual(["2025-07-01", "2025-08-01"]);
    expect(cost).toBeCloseTo(0.08013, 5);
    const newLost = fake.requests.find((r) => r.path === "/v3/backlinks/timeseries_new_lost_summary/live");
    expect(newLost?.body).toEqual([
      { target: "example.com", date_from: "2024-08-01", date_to: "2025-08-15", group_range: "month" },
    ]);
  });
});
