import { describe, expect, test } from "vitest";
import { findRegistrableDomain, isOnDomain, parseDomainTitle } from "./domains";
import { collectEntities, extractMentionSentences, findMentions } from "./mentions";
import { parseSiteName } from "./site-name";

const entities = (domain: string, competitors: string[] = [], cited: string[] = [], names: string[] = []) =>
  collectEntities({ domain, names }, competitors, cited);

describe("registrable domains", () => {
  const cases: [string, string | null][] = [
    ["https://www.acme.com/pricing", "acme.com"],
    ["https://blog.acme.co.uk/post", "acme.co.uk"],
    ["ACME.COM", "acme.com"],
    ["http://127.0.0.1:3000/x", null],
  ];
  for (const [input, expected] of cases)
    test(input, () => expect(findRegistrableDomain(input)).toBe(expected));

  test("subdomains and www are on the domain; a look-alike is not", () => {
    expect(isOnDomain("https://docs.acme.com/a", "acme.com")).toBe(true);
    expect(isOnDomain("https://www.acme.com/", "www.acme.com")).toBe(true);
    expect(isOnDomain("https://acme.com.evil.io/", "acme.com")).toBe(false);
    expect(isOnDomain("https://notacme.com/", "acme.com")).toBe(false);
  });

  test("a chunk title is a domain only when it looks like one", () => {
    expect(parseDomainTitle("www.acme.com")).toBe("acme.com");
    expect(parseDomainTitle("Acme pricing page")).toBeNull();
  });
});

describe("mentions", () => {
  test("a brand inside another word is not a mention", () => {
    const a = findMentions(
      "Acmeville hosts a fair; the Macme tool and acmes are unrelated.",
      entities("acme.com"),
    );
    expect(a.mentions).toEqual([]);
  });

  test("the label, the domain and the site's own name count, case-insensitively, on word boundaries", () => {
    const e = entities("acme-tools.com", [], [], ["Acme Toolworks"]);
    expect(findMentions("Try ACME TOOLS today.", e).mentions[0]?.text).toBe("ACME TOOLS");
    expect(findMentions("See acme-tools.com.", e).mentions[0]?.text).toBe("acme-tools.com");
    expect(findMentions("Acme Toolworks ships fast.", e).mentions[0]?.text).toBe("Acme Toolworks");
  });

  test("position is the order of first mention among every brand or domain named", () => {
    const e = entities("acme.com", ["rival.io", "other.com"], ["wiki.org"]);
    const a = findMentions("Wiki lists Rival first, then Acme, then Rival again and acme.com.", e);
    expect(a.mentions.map((m) => [m.domain, m.position])).toEqual([
      ["wiki.org", 1],
      ["rival.io", 2],
      ["acme.com", 3],
    ]);
  });

  test("a brand label inside a competitor's domain is the competitor's mention", () => {
    const a = findMentions("Consider acme-rival.com for this.", entities("acme.com", ["acme-rival.com"]));
    expect(a.mentions.map((m) => m.domain)).toEqual(["acme-rival.com"]);
  });

  test("mention sentences mask every brand name before scoring", () => {
    const e = entities("happylabs.com", ["bestbuy.com"], [], ["Happy Labs"]);
    const text = "Happy Labs ships late orders. Weather is nice.\nBestBuy and Happy Labs both sell online.";
    const a = findMentions(text, e);
    expect(extractMentionSentences(text, a, "happylabs.com")).toEqual([
      "it ships late orders.",
      "it and it both sell online.",
    ]);
  });

  // Speed is measured in bench/ai-visibility.ts; this checks that near-misses on a long text stay near-misses.
  test("a long run of near-misses yields only the one real mention", () => {
    const text = `${"acmeacme acm ".repeat(20_000)} acme.`;
    const a = findMentions(text, entities("acme.com", ["a.com", "aa.com"]));
    expect(a.mentions.map((m) => m.domain)).toEqual(["acme.com"]);
    expect(a.matches).toHaveLength(1);
    expect(extractMentionSentences(text, a, "acme.com")).toHaveLength(1);
  });
});

describe("site name", () => {
  test("og:site_name wins, else the branded part of the title", () => {
    expect(
      parseSiteName('<meta property="og:site_name" content="Acme Cloud"><title>x</title>', "acme.com"),
    ).toBe("Acme Cloud");
    expect(parseSiteName("<title>Project management for teams | Acme HQ</title>", "acme.com")).toBe(
      "Acme HQ",
    );
    expect(
      parseSiteName("<title>Project management for fast-moving modern teams</title>", "acme.com"),
    ).toBeNull();
  });
});
