import { describe, expect, test } from "vitest";
import { createReverseDnsVerifier, type ReverseDnsResolver } from "./reverse-dns";

// A local fake resolver: PTR and A records as Google, Bing and an impostor would have them.
function fakeResolver(overrides: Partial<ReverseDnsResolver> = {}) {
  const calls = { reverse: 0, resolve: 0 };
  const ptr: Record<string, string[]> = {
    "66.249.66.1": ["crawl-66-249-66-1.googlebot.com"],
    "157.55.39.1": ["msnbot-157-55-39-1.search.msn.com."],
    "203.0.113.9": ["crawl-203-0-113-9.googlebot.com.evil.example"],
    "198.51.100.4": ["crawl-1.googlebot.com"], // claims Google's name, which does not resolve back
    "34.1.2.3": ["3-2-1-34.gae.googleusercontent.com"], // a Google fetcher on App Engine
    "34.9.8.7": ["7.8.9.34.bc.googleusercontent.com"], // any cloud customer's machine
    "66.249.87.5": ["rate-limited-proxy-66-249-87-5.google.com"],
  };
  const a: Record<string, string[]> = {
    "crawl-66-249-66-1.googlebot.com": ["66.249.66.1"],
    "msnbot-157-55-39-1.search.msn.com.": ["157.55.39.1"],
    "crawl-203-0-113-9.googlebot.com.evil.example": ["203.0.113.9"],
    "crawl-1.googlebot.com": ["66.249.66.2"],
    "3-2-1-34.gae.googleusercontent.com": ["34.1.2.3"],
    "7.8.9.34.bc.googleusercontent.com": ["34.9.8.7"],
    "rate-limited-proxy-66-249-87-5.google.com": ["66.249.87.5"],
  };
  const resolver: ReverseDnsResolver = {
    async reverse(ip) {
      calls.reverse++;
      const names = ptr[ip];
      if (!names) throw Object.assign(new Error("no PTR"), { code: "ENOTFOUND" });
      return names;
    },
    async resolve(name) {
      calls.resolve++;
      return a[name] ?? [];
    },
    ...overrides,
  };
  return { resolver, calls };
}

describe("reverse-DNS verification", () => {
  test.each([
    ["Googlebot", "66.249.66.1", "verified"],
    ["Bingbot", "157.55.39.1", "verified"],
    ["Googlebot", "157.55.39.1", "unverified"], // Bing's crawler host is not Google's
    ["Googlebot", "203.0.113.9", "unverified"], // googlebot.com only as a label of another domain
    ["Googlebot", "198.51.100.4", "unverified"], // the PTR name does not resolve back to the address
    ["Googlebot", "192.0.2.77", "unverified"], // no PTR record at all
    ["GPTBot", "66.249.66.1", "unknown"], // OpenAI documents IP lists, not reverse DNS
    ["Mediapartners-Google", "66.249.87.5", "verified"], // a special-case crawler's rate-limited proxy
    ["FeedFetcher-Google", "34.1.2.3", "verified"], // a user-triggered fetcher on App Engine
    ["FeedFetcher-Google", "34.9.8.7", "unverified"], // a cloud machine's googleusercontent.com name is not Google's
    ["Googlebot", "34.9.8.7", "unverified"], // nor Googlebot's
  ])("%s from %s is %s", async (bot, ip, verdict) => {
    const { resolver } = fakeResolver();
    expect(await createReverseDnsVerifier({ resolver }).verify(bot, ip)).toBe(verdict);
  });

  test("answers are cached: one lookup per address, shared by every bot and concurrent visit", async () => {
    const { resolver, calls } = fakeResolver();
    const verifier = createReverseDnsVerifier({ resolver });
    await Promise.all([
      verifier.verify("Googlebot", "66.249.66.1"),
      verifier.verify("Googlebot", "66.249.66.1"),
    ]);
    await verifier.verify("Googlebot-Image", "66.249.66.1");
    expect(calls.reverse).toBe(1);
  });

  test("a resolver slower than the time limit gives unknown, and is asked again next time", async () => {
    let slow = true;
    const { resolver, calls } = fakeResolver();
    const verifier = createReverseDnsVerifier({
      timeoutMs: 50,
      resolver: {
        ...resolver,
        reverse: (ip) =>
          slow ? new Promise((resolve) => setTimeout(() => resolve(["x"]), 1_000)) : resolver.reverse(ip),
      },
    });
    const started = Date.now();
    expect(await verifier.verify("Googlebot", "66.249.66.1")).toBe("unknown");
    expect(Date.now() - started).toBeLessThan(900);
    slow = false;
    expect(await verifier.verify("Googlebot", "66.249.66.1")).toBe("verified");
    expect(calls.reverse).toBe(1);
  });

  test("a server failure is no answer (unknown), not a spoof", async () => {
    const { resolver } = fakeResolver({
      reverse: async () => {
        throw Object.assign(new Error("SERVFAIL"), { code: "ESERVFAIL" });
      },
    });
    expect(await createReverseDnsVerifier({ resolver }).verify("Googlebot", "66.249.66.1")).toBe("unknown");
  });
});

describe("the ingest step", () => {
  test("settles from the cache only the unknown visits of bots with a reverse-DNS rule; the rest wait", async () => {
    const { settleFromCache } = await import("../ingest/reverse-dns-step");
    const { resolver, calls } = fakeResolver();
    const verifier = createReverseDnsVerifier({ resolver });
    await verifier.verify("Googlebot", "66.249.66.1"); // answered earlier: in the cache
    const rows = [
      { botName: "Googlebot", ip: "66.249.66.1", verification: "unknown" },
      { botName: "Googlebot", ip: "203.0.113.9", verification: "unknown" }, // not asked yet
      { botName: "Googlebot", ip: "66.249.66.1", verification: "unverified" }, // IP lists already decided
      { botName: "GPTBot", ip: "66.249.66.1", verification: "unknown" },
      { botName: null, ip: "66.249.66.1", verification: "unknown" },
    ] as Parameters<typeof settleFromCache>[0];
    const pending = settleFromCache(rows, verifier);
    expect(rows.map((r) => r.verification)).toEqual([
      "verified",
      "unknown",
      "unverified",
      "unknown",
      "unknown",
    ]);
    expect(pending).toEqual([rows[1]]);
    expect(calls.reverse).toBe(1); // settling made no lookup
    expect(settleFromCache(rows, null)).toEqual([]); // off: nothing waits
  });
});
