import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { committedListsAsWhole } from "@/test/support/range-feeds";
import { BOT_DEFINITIONS } from "../bots";
import { IpRangeSet, isPublicIp, parseCidr, parseIp } from "./cidr";
import { parseRangeFeed } from "./feed";
import { RANGE_SOURCE_KEYS, RANGE_SOURCES } from "./sources";
import { createIpVerifier, installRangeFeeds, verifyBotIp } from "./verify";

function set(...cidrs: string[]) {
  return new IpRangeSet(cidrs.map((c) => parseCidr(c)!));
}

describe("parseIp and parseCidr", () => {
  test("IPv4, IPv6, brackets, zones and IPv4-mapped IPv6", () => {
    expect(parseIp("66.249.66.1")).toEqual({ version: 4, value: 0x42f94201 });
    expect(parseIp("::ffff:66.249.66.1")).toEqual({ version: 4, value: 0x42f94201 });
    expect(parseIp("[2001:4860:4801:10::1]")?.version).toBe(6);
    expect(parseIp("fe80::1%eth0")?.version).toBe(6);
    for (const bad of ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "example.com", "1.2.3.4x", "::g"]) {
      expect(parseIp(bad), bad).toBeNull();
    }
  });

  test("clears host bits and rejects impossible lengths", () => {
    expect(parseCidr("66.249.64.5/27")?.cidr).toBe("66.249.64.0/27");
    expect(parseCidr("2001:4860:4801:10::ff/64")?.cidr).toBe("2001:4860:4801:10::/64");
    expect(parseCidr("3.81.245.78")?.cidr).toBe("3.81.245.78/32"); // Amazon publishes bare addresses
    expect(parseCidr("1.2.3.0/33")).toBeNull();
    expect(parseCidr("1.2.3.0/-1")).toBeNull();
    expect(parseCidr("not-a-cidr")).toBeNull();
  });
});

describe("IpRangeSet", () => {
  test("includes both edges of a block and nothing outside it", () => {
    const s = set("172.182.202.0/25");
    expect(s.contains(parseIp("172.182.202.0")!)).toBe(true);
    expect(s.contains(parseIp("172.182.202.127")!)).toBe(true);
    expect(s.contains(parseIp("172.182.202.128")!)).toBe(false);
    expect(s.contains(parseIp("172.182.201.255")!)).toBe(false);
  });

  test("merges overlapping and adjacent blocks", () => {
    const s = set("10.0.0.0/25", "10.0.0.128/25", "10.0.0.64/26", "10.0.2.0/24");
    expect(s.contains(parseIp("10.0.0.200")!)).toBe(true);
    expect(s.contains(parseIp("10.0.1.1")!)).toBe(false);
    expect(s.contains(parseIp("10.0.2.255")!)).toBe(true);
  });

  test("keeps the families apart", () => {
    const v6 = set("::/0");
    expect(v6.contains(parseIp("1.2.3.4")!)).toBe(false);
    expect(v6.contains(parseIp("::ffff:1.2.3.4")!)).toBe(false); // mapped addresses are IPv4
    const s = set("2001:4860:4801:10::/64");
    expect(s.contains(parseIp("2001:4860:4801:10:ffff:ffff:ffff:ffff")!)).toBe(true);
    expect(s.contains(parseIp("2001:4860:4801:11::")!)).toBe(false);
  });

  test("answers over a large set without scanning it", () => {
    const blocks = Array.from({ length: 5000 }, (_, i) => `${20 + (i >> 8)}.${i & 255}.0.0/24`);
    const s = set(...blocks);
    expect(s.contains(parseIp("39.135.0.7")!)).toBe(true);
    expect(s.contains(parseIp("39.135.1.7")!)).toBe(false);
  });
});

describe("isPublicIp", () => {
  test.each([
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.16.5.4", false],
    ["192.168.1.1", false],
    ["100.64.0.1", false],
    ["169.254.169.254", false],
    ["::1", false],
    ["fd00::1", false],
    ["fe80::1", false],
    ["66.249.66.1", true],
    ["2001:4860:4801:10::1", true],
  ])("%s → %s", (ip, expected) => expect(isPublicIp(parseIp(ip)!)).toBe(expected));
});

describe("verifyBotIp with the committed data", () => {
  // Each claim and its verdict once the operators' whole lists are in. The committed files are seeds (part of
  // each list): against them an address they miss proves nothing.
  const claims: [string, string, "verified" | "unverified"][] = [
    ["GPTBot", "20.171.206.10", "verified"],
    ["GPTBot", "8.8.8.8", "unverified"],
    ["GPTBot", "23.98.142.180", "unverified"], // a ChatGPT-User range, not GPTBot's
    ["ChatGPT-User", "23.98.142.180", "verified"],
    ["ChatGPT-User", "20.215.219.170", "verified"], // in the seed's complete April list
    ["OAI-SearchBot", "51.8.102.17", "verified"],
    ["Googlebot", "66.249.66.1", "verified"],
    ["Googlebot-Smartphone", "66.249.79.200", "verified"],
    ["Googlebot", "2001:4860:4801:1f::42", "verified"],
    ["Googlebot", "::ffff:66.249.66.1", "verified"],
    ["Googlebot", "35.190.10.10", "unverified"],
    ["Bingbot", "157.55.39.1", "verified"],
    ["Bingbot", "207.46.13.250", "verified"],
    ["Bingbot", "40.77.167.9", "verified"],
    ["bingbot", "66.249.66.1", "unverified"], // names are case-insensitive
    ["ClaudeBot", "216.73.217.16", "verified"],
    ["Claude-User", "216.73.217.16", "verified"],
    ["PerplexityBot", "18.97.1.229", "verified"],
    ["PerplexityBot", "18.97.1.232", "unverified"],
    ["Perplexity-User", "44.208.221.197", "verified"],
    ["Applebot", "17.241.208.170", "verified"],
    ["DuckDuckBot", "20.191.44.16", "verified"],
    ["AdsBot-Google", "66.249.87.10", "verified"],
    ["AdsBot-Google", "66.249.66.1", "unverified"], // Googlebot's range is not AdsBot's
    ["Mediapartners-Google", "74.125.219.40", "verified"],
    ["FeedFetcher-Google", "35.243.23.70", "verified"], // the user-triggered fetchers' list
    ["Google-Read-Aloud", "34.101.6.40", "verified"],
    ["Google-Site-Verification", "2600:1900:0:2a1::9", "verified"],
    ["FeedFetcher-Google", "66.249.66.1", "unverified"], // Googlebot's
    ["MistralAI-User", "20.240.160.161", "verified"],
    ["MistralAI-User", "20.240.192.194", "unverified"], // MistralAI-Index's address
    ["MistralAI-Index", "135.225.57.92", "verified"],
    ["CCBot", "18.97.14.81", "verified"],
    ["CCBot", "2600:1f28:365:80ff::1", "verified"],
    ["CCBot", "18.97.14.96", "unverified"],
    ["Amazonbot", "100.24.149.244", "verified"],
    ["Amazonbot", "100.24.86.21", "unverified"], // Amzn-User's address
    ["Amzn-SearchBot", "100.24.190.202", "verified"],
    ["Amzn-User", "100.24.86.21", "verified"],
    ["Google-Agent", "136.122.5.5", "verified"],
    ["Google-Agent", "2001:4860:c::75", "verified"],
    ["Google-Agent", "66.249.66.1", "unverified"], // Googlebot's
    ["Google-GeminiNotebook", "142.250.32.7", "verified"], // the google.com fetchers' list
    ["OAI-AdsBot", "20.168.90.200", "verified"],
    ["OAI-AdsBot", "20.171.206.10", "unverified"], // GPTBot's
    ["ShapBot", "34.9.172.22", "verified"],
    ["ShapBot", "34.9.172.23", "unverified"],
  ];

  test.each(claims)("%s from %s, against the seeds: verified if in them, else unknown", (bot, ip, whole) =>
    expect(verifyBotIp(bot, ip)).toBe(whole === "verified" ? "verified" : "unknown"),
  );

  describe("once the whole lists are fetched", () => {
    beforeAll(() => installRangeFeeds(committedListsAsWhole()));
    afterAll(() => installRangeFeeds({}));
    test.each(claims)("%s from %s is %s", (bot, ip, expected) => expect(verifyBotIp(bot, ip)).toBe(expected));
  });

  test.each<[string, string | null, string]>([
    ["Meta-ExternalAgent", "31.13.64.1", "operator publishes no ranges"],
    ["Bytespider", "8.8.8.8", "operator publishes no ranges"],
    ["Google-Extended", "66.249.66.1", "a robots.txt token has no ranges"],
    ["GPTBot", null, "no address"],
    ["GPTBot", "", "no address"],
    ["GPTBot", "10.0.0.7", "a private address: a proxy hid the client"],
    ["GPTBot", "crawler.example.com", "a host name, not an address"],
    ["NoSuchBot", "8.8.8.8", "not a bot we know"],
  ])("%s from %s is unknown (%s)", (bot, ip) => expect(verifyBotIp(bot, ip)).toBe("unknown"));

  test("lists with no range of the address's family prove nothing either way", () => {
    const verifier = createIpVerifier({
      "google-user-triggered-fetchers": { prefixes: [{ ipv6Prefix: "2404:f340:10:4000::/64" }] },
    });
    expect(verifier.verifyBotIp("FeedFetcher-Google", "2404:f340:10:4000::5")).toBe("verified");
    expect(verifier.verifyBotIp("FeedFetcher-Google", "2600:1900::5")).toBe("unverified");
    // An IPv4 address against an IPv6-only list: neither in it nor disproved by it.
    expect(verifier.verifyBotIp("FeedFetcher-Google", "66.102.8.1")).toBe("unknown");
  });
});

describe("createIpVerifier", () => {
  test("verifies against the feeds it is given, in the operators' format", () => {
    const verifier = createIpVerifier({
      "openai-gptbot": {
        creationTime: "x",
        prefixes: [{ ipv4Prefix: "203.0.113.0/24" }, { ipv6Prefix: "2a00:1::/32" }],
      },
    });
    expect(verifier.loadedSources()).toEqual(["openai-gptbot"]);
    expect(verifier.verifyBotIp("GPTBot", "2a00:1::5")).toBe("verified");
    expect(verifier.verifyBotIp("GPTBot", "2a00:2::5")).toBe("unverified");
    expect(verifier.verifyBotIp("Googlebot", "66.249.66.1")).toBe("unknown"); // not loaded
  });

  test("a seed (part of a list) proves the addresses it holds and disproves none", () => {
    const whole = { prefixes: [{ ipv4Prefix: "66.249.64.0/27" }] };
    const seed = { seed: true, prefixes: [{ ipv4Prefix: "66.249.87.0/27" }] };
    const seeded = createIpVerifier({ "openai-gptbot": { ...seed } });
    expect(seeded.verifyBotIp("GPTBot", "66.249.87.5")).toBe("verified");
    expect(seeded.verifyBotIp("GPTBot", "8.8.8.8")).toBe("unknown");
    // A bot checked against two lists: a miss disproves it only when both are whole.
    const mixed = createIpVerifier({ "google-common-crawlers": whole, "google-special-crawlers": seed });
    expect(mixed.verifyBotIp("Google-CloudVertexBot", "66.249.64.5")).toBe("verified");
    expect(mixed.verifyBotIp("Google-CloudVertexBot", "66.249.87.5")).toBe("verified");
    expect(mixed.verifyBotIp("Google-CloudVertexBot", "8.8.8.8")).toBe("unknown");
    const both = createIpVerifier({
      "google-common-crawlers": whole,
      "google-special-crawlers": { ...seed, seed: false },
    });
    expect(both.verifyBotIp("Google-CloudVertexBot", "8.8.8.8")).toBe("unverified");
  });
});

describe("parseRangeFeed", () => {
  test("reads both families, bare addresses, and skips junk and implausibly broad entries", () => {
    const feed = parseRangeFeed({
      creationTime: "2026-09-15T10:00:00.000000",
      prefixes: [
        { ipv4Prefix: "66.249.64.0/27" },
        { ipv4Prefix: "66.249.64.5/27" }, // duplicate once normalised
        { ipv6Prefix: "2001:4860:4801:10::/64" },
        { ip_prefix: "3.81.245.78" },
        { ipv4Prefix: "0.0.0.0/0" },
        { ipv4Prefix: "not-a-cidr" },
        "52.167.144.0/24",
        42,
      ],
    });
    expect(feed.creationTime).toBe("2026-09-15T10:00:00.000000");
    expect(feed.prefixes.map((p) => p.cidr)).toEqual([
      "66.249.64.0/27",
      "2001:4860:4801:10::/64",
      "3.81.245.78/32",
      "52.167.144.0/24",
    ]);
    expect(feed.rejected).toEqual(["0.0.0.0/0", "not-a-cidr", "42"]);
  });

  test("refuses something that is not a feed", () => {
    expect(() => parseRangeFeed([])).toThrow();
    expect(() => parseRangeFeed({ items: [] })).toThrow(/prefixes/);
  });
});

describe("committed data files", () => {
  const dir = path.join(import.meta.dirname, "../data");

  test("one file per source, each a well-formed feed with a creation time and note", () => {
    // The AI-agent and AI-referrer lists live beside the range files (data/README.md).
    const lists = ["ai-robots-txt.json", "ai-assistants.json"];
    const files = readdirSync(dir).filter((f) => f.endsWith(".json") && !lists.includes(f));
    expect(files.sort()).toEqual(RANGE_SOURCE_KEYS.map((k) => `${k}.json`).sort());
    for (const file of files) {
      const json = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
      expect(json, file).toHaveProperty("creationTime");
      expect(json.note, file).toMatch(/tracking:refresh-ranges/);
      const feed = parseRangeFeed(json);
      expect(feed.rejected, file).toEqual([]);
    }
  });

  test("every range source a bot names is listed, and every source serves some bot", () => {
    const named = new Set(BOT_DEFINITIONS.flatMap((d) => d.ipRanges));
    for (const key of named) expect(RANGE_SOURCES.some((s) => s.key === key)).toBe(true);
    for (const source of RANGE_SOURCES) expect(named.has(source.key), source.key).toBe(true);
  });
});
