import { expect, test } from "vitest";
import { parseRobotsTxt } from "@/lib/seo/robots";
import {
  detectChallenge,
  isCrawlerMetaName,
  parseContentSignal,
  parseUsagePreference,
  parseXRobotsTag,
  readRobotsPreferences,
} from "./signals";

test("Content-Signal: the three signals, read case-blind, the rest kept as unknown", () => {
  expect(parseContentSignal("Search=YES, ai-input=no ,ai-train=no, use=immediate, ai-train")).toEqual({
    raw: "Search=YES, ai-input=no ,ai-train=no, use=immediate, ai-train",
    search: "yes",
    aiInput: "no",
    aiTrain: "no",
    unknown: ["use=immediate", "ai-train"],
  });
});

test("Content-Usage follows the vocabulary's processing rules", () => {
  expect(parseUsagePreference("train-ai=n, search=y")).toEqual({ trainAi: "n", search: "y", unknown: [] });
  // The last value of a key wins; a value that is no y/n token leaves the category unknown.
  expect(parseUsagePreference('train-ai=y, train-ai, search=n, search="n"')).toEqual({ unknown: [] });
  // Parameters are ignored.
  expect(parseUsagePreference("train-ai;allow=n, train-ai=y")).toEqual({ trainAi: "y", unknown: [] });
  expect(parseUsagePreference('ai-use=n;reason="a, b", bots=n, train-genai=n')).toEqual({
    aiUse: "n",
    unknown: ["bots", "train-genai"],
  });
  // Keys are case-sensitive: a dictionary that does not parse states nothing.
  expect(parseUsagePreference("Train-AI=n")).toEqual({ unknown: ["Train-AI=n"] });
});

test("robots.txt Content-Signal and Content-Usage records keep their group's user agents", () => {
  const robots = parseRobotsTxt(
    "User-agent: GPTBot\nUser-agent: CCBot\nContent-Signal: ai-train=no\nDisallow: /x\n\nUser-agent: *\nContent-Usage: /docs/ train-ai=y\nContent-Usage: train-ai=n\nAllow: /\n",
  );
  const prefs = readRobotsPreferences(robots);
  expect(prefs.signals).toEqual([
    expect.objectContaining({ userAgents: ["GPTBot", "CCBot"], group: 0, line: 3, aiTrain: "no" }),
  ]);
  expect(prefs.usage).toEqual([
    expect.objectContaining({ userAgents: ["*"], group: 1, path: "/docs/", trainAi: "y" }),
    // A rule without a path is read as applying to "/".
    expect.objectContaining({ userAgents: ["*"], group: 1, path: "/", trainAi: "n" }),
  ]);
});

test("X-Robots-Tag: general and crawler-scoped values; directive names with a colon are no crawler", () => {
  expect(
    parseXRobotsTag([
      "noindex, nofollow",
      "GPTBot: noai, noimageai",
      "unavailable_after: 25 Jun 2030 15:00:00 PST",
      "max-snippet: 20",
    ]),
  ).toEqual([
    { source: "x-robots-tag", agent: "robots", directives: ["noindex", "nofollow"] },
    { source: "x-robots-tag", agent: "gptbot", directives: ["noai", "noimageai"] },
    { source: "x-robots-tag", agent: "robots", directives: ["unavailable_after:25 jun 2030 15:00:00 pst"] },
    { source: "x-robots-tag", agent: "robots", directives: ["max-snippet:20"] },
  ]);
  expect(isCrawlerMetaName("GPTBot")).toBe(true);
  expect(isCrawlerMetaName("robots")).toBe(true);
  expect(isCrawlerMetaName("viewport")).toBe(false);
});

test("challenge and block pages are recognised by their vendors' markers; an ordinary 403 is not one", () => {
  const page = (status: number, body: string, headers: Record<string, string[]> = {}) => ({
    status,
    body,
    headers,
  });
  expect(detectChallenge(page(403, "<title>Just a moment...</title>"))).toBe("Cloudflare challenge");
  expect(detectChallenge(page(429, "", { "x-vercel-mitigated": ["challenge"] }))).toBe("Vercel challenge");
  expect(detectChallenge(page(403, '<script src="https://ct.captcha-delivery.com/c.js"></script>'))).toBe(
    "DataDome challenge",
  );
  expect(detectChallenge(page(200, "<html>Incapsula incident ID: 123</html>"))).toBe(
    "Imperva (Incapsula) block page",
  );
  expect(detectChallenge(page(403, "<html><body>Forbidden</body></html>"))).toBeNull();
  expect(detectChallenge(page(200, "<html><body>Welcome</body></html>"))).toBeNull();
});
