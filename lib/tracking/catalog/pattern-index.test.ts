import crawlerUserAgents from "crawler-user-agents";
import { describe, expect, test } from "vitest";
import { BOT_DEFINITIONS } from "./bots";
import { createAnchoredMatcher, extractAnchors } from "./pattern-index";

describe("extractAnchors", () => {
  const cases: [RegExp, string[] | null][] = [
    [/GPTBot/, ["GPTBot"]],
    [/\bGPTBot\b/i, ["gptbot"]],
    [/Googlebot\//, ["Googlebot/"]],
    [/AdsBot-Google([^-]|$)/, ["AdsBot-Google"]],
    [/^curl/, ["curl"]],
    [/Ahrefs(Bot|SiteAudit)/, ["Ahrefs"]],
    [/\bMobile\b.*\bGooglebot\/\d/i, ["googlebot/"]],
    [/\bPerplexity-?User\b/i, ["perplexity"]], // the optional "-" ends the run
    [/yandex\.com\/bots/, ["yandex.com/bots"]],
    [/Chirp|gotosocial/, ["Chirp", "gotosocial"]],
    [/a|b/, null], // an alternative without a usable literal must always be tried
    [/x+yzw/, ["yzw"]],
    [/xy+z/, null], // no three-character run is certain
  ];
  for (const [regex, anchors] of cases) {
    test(String(regex), () => expect(extractAnchors(regex)).toEqual(anchors));
  }
});

describe("createAnchoredMatcher", () => {
  test("finds exactly what trying every crawler-user-agents pattern in order finds", () => {
    const regexes = crawlerUserAgents.map((entry) => new RegExp(entry.pattern));
    const matcher = createAnchoredMatcher(regexes, false);
    const samples = crawlerUserAgents.flatMap((entry) => entry.instances);
    expect(samples.length).toBeGreaterThan(2000);
    for (const ua of samples) {
      const expected = regexes.findIndex((r) => r.test(ua));
      expect(matcher.findFirst(ua)?.index ?? -1, ua).toBe(expected);
    }
  });

  test("agrees with a linear scan of our own case-insensitive table", () => {
    const regexes = BOT_DEFINITIONS.flatMap((d) => (d.userAgent ? [d.userAgent] : []));
    const matcher = createAnchoredMatcher(regexes, true);
    const samples = [
      "Mozilla/5.0 (compatible; GOOGLEBOT/2.1)",
      "mozilla/5.0 (compatible; claudebot/1.0)",
      "Mozilla/5.0 (Linux; Android 6.0.1) Mobile Safari/537.36 (compatible; Googlebot/2.1)",
      "TelegramBot (like TwitterBot)",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36",
      ...crawlerUserAgents.flatMap((entry) => entry.instances).slice(0, 500),
    ];
    for (const ua of samples) {
      expect(matcher.findFirst(ua)?.index ?? -1, ua).toBe(regexes.findIndex((r) => r.test(ua)));
    }
  });

  test("returns the lowest index when several patterns match", () => {
    const matcher = createAnchoredMatcher([/Googlebot-Image/, /Googlebot/], false);
    expect(matcher.findFirst("Googlebot-Image/1.0")?.index).toBe(0);
    expect(matcher.findFirst("Googlebot/2.1")?.index).toBe(1);
    expect(matcher.findFirst("Bingbot/2.0")).toBeNull();
  });
});
