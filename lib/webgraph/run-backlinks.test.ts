import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { type FakeDataForSeo, startFakeDataForSeo } from "@/test/fakes/dataforseo";
import { dbTest } from "@/test/support/fixtures";
import { backlinksOverviewResult, domainAuthorityInput, domainAuthorityResult } from "./backlinks-schema";
import { importWebgraph } from "./import-webgraph";
import { backlinksAvailability, runBacklinksOverview, runDomainAuthority } from "./run-backlinks";

const FIXTURES = path.join(import.meta.dirname, "../../test/fixtures/webgraph");
const signal = new AbortController().signal;
const test = dbTest;
let handle: DbHandle;
let fake: FakeDataForSeo;
let env: Record<string, string>;

test.beforeAll(async ({ handle: _handle }) => {
  handle = _handle;
  fake = await startFakeDataForSeo({ keywords: [] });
  env = { DATAFORSEO_LOGIN: fake.login, DATAFORSEO_PASSWORD: fake.password, DATAFORSEO_BASE_URL: fake.url };
});
afterAll(async () => {
  await fake?.close();
});

describe("before any web graph is imported", () => {
  test("without a provider it is unavailable, saying what to set up", async () => {
    const a = await backlinksAvailability(handle.db, {});
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.reason).toMatch(/import-webgraph.*DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD/);
    await expect(
      runBacklinksOverview({ target: "example.com" }, { db: handle.db, signal, env: {} }),
    ).rejects.toMatchObject({
      code: "DATAFORSEO_NOT_CONFIGURED",
    });
  });

  test("with DataForSEO alone, DataForSEO answers", async () => {
    expect(await backlinksAvailability(handle.db, env)).toEqual({ ok: true });
    const r = await runBacklinksOverview({ target: "example.com" }, { db: handle.db, signal, env });
    expect(backlinksOverviewResult.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      source: "dataforseo",
      webgraph: null,
      dataforseo: { backlinks: 1520, nofollowBacklinks: 220 },
    });
  });

  test("a provider failure with nothing else to answer fails the run", async () => {
    const broke = await startFakeDataForSeo({ keywords: [] });
    broke.failTask("/v3/backlinks/summary/live", 40210, "You don't have enough funds on your account.");
    try {
      const run = runBacklinksOverview(
        { target: "example.com" },
        {
          db: handle.db,
          signal,
          env: {
            ...env,
            DATAFORSEO_BASE_URL: broke.url,
            DATAFORSEO_LOGIN: broke.login,
            DATAFORSEO_PASSWORD: broke.password,
          },
        },
      );
      await expect(run).rejects.toMatchObject({ code: "DATAFORSEO_PAYMENT_REQUIRED", statusCode: 40210 });
    } finally {
      await broke.close();
    }
  });
});

describe("with a web graph imported", () => {
  beforeAll(async () => {
    for (const level of ["domain", "host"] as const) {
      await importWebgraph(handle.db, {
        snapshot: { name: "cc-main-sample-d2", takenOn: "2025-08-31" },
        level,
        verticesFile: path.join(FIXTURES, `d2-${level}-vertices.txt.gz`),
        edgesFile: path.join(FIXTURES, `d2-${level}-edges.txt.gz`),
        ranksFile: path.join(FIXTURES, `d2-${level}-ranks.txt.gz`),
      });
    }
  });

  test("the web graph answers alone without a provider", async () => {
    const r = await runBacklinksOverview(
      { target: "example.com", includeHistory: true },
      { db: handle.db, signal, env: {} },
    );
    expect(r.source).toBe("webgraph");
    expect(r.dataforseo).toBeNull();
    expect(r.webgraph).toMatchObject({ referringDomains: 4, referringHosts: 5 });
    expect(r.webgraph?.history).toHaveLength(1);
  });

  test("both answer when DataForSEO is configured", async () => {
    const r = await runBacklinksOverview({ target: "example.com" }, { db: handle.db, signal, env });
    expect(r.source).toBe("both");
    expect(r.webgraph?.rank?.authorityScore).toBe(81);
    expect(r.dataforseo?.topAnchors[0]?.anchor).toBe("cold brew guide");
  });

  test("a provider failure becomes a warning when the web graph answered", async () => {
    const r = await runBacklinksOverview(
      { target: "example.com" },
      { db: handle.db, signal, env: { ...env, DATAFORSEO_PASSWORD: "wrong" } },
    );
    expect(r.source).toBe("webgraph");
    expect(r.warnings).toEqual([expect.stringContaining("DATAFORSEO_AUTH_FAILED")]);
  });

  test("bulk domain authority merges both sources per domain", async () => {
    const input = domainAuthorityInput.parse({ domains: ["Example.com", "wikipedia.org", "nowhere.test"] });
    const r = await runDomainAuthority(input, { db: handle.db, signal, env });
    expect(domainAuthorityResult.parse(r)).toEqual(r);
    expect(r.source).toBe("both");
    expect(r.domains.map((d) => [d.domain, d.found, d.referringDomains, d.dataforseo?.rank])).toEqual([
      ["example.com", true, 4, 500],
      ["wikipedia.org", true, 2, 490],
      ["nowhere.test", false, 0, 480],
    ]);
  });

  const bad: [string, unknown][] = [
    ["no domains", { domains: [] }],
    ["101 domains", { domains: Array.from({ length: 101 }, (_, i) => `d${i}.com`) }],
    ["a URL instead of a domain", { domains: ["https://example.com/"] }],
    ["an unknown field", { domains: ["example.com"], extra: 1 }],
  ];
  for (const [name, body] of bad)
    test(`domain authority rejects ${name}`, () =>
      expect(domainAuthorityInput.safeParse(body).success).toBe(false));
});
