import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGuardedFetch } from "@/lib/fetch/guarded-fetch";
import { type FixtureServer, startFixtureServer } from "@/test/fixture-server";
import {
  checkBotAccess,
  extractProductToken,
  fetchRobotsTxt,
  isAllowedByRobots,
  matchesPattern,
  matchRobots,
  normalisePath,
  parseRobotsTxt,
  ROBOTS_MAX_BYTES,
} from "./robots";

const site = "https://www.example.com";

// RFC 9309 §5.1, verbatim.
const rfcSimple = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

describe("RFC 9309 §5.1 simple example", () => {
  const robots = parseRobotsTxt(rfcSimple);
  const cases: [string, string, boolean][] = [
    ["foobot", "/example/page.html", true],
    ["foobot", "/example/allowed.gif", true],
    ["foobot", "/example/other.html", false],
    ["foobot", "/", false],
    ["FooBot", "/example/page.html", true],
    ["foobot/2.1 (+https://foo.example)", "/publications/", false],
    ["barbot", "/example/page.html", false],
    ["bazbot", "/example/page.html", false],
    ["barbot", "/example/other.html", true],
    ["barbot", "/image.gif", true],
    ["quxbot", "/example/page.html", true],
    ["quxbot", "/image.gif", true],
    ["otherbot", "/image.gif", false],
    ["otherbot", "/image.gif?size=2", true],
    ["otherbot", "/example/", false],
    ["otherbot", "/publications/", true],
    ["otherbot", "/index.html", true],
  ];
  for (const [agent, path, allowed] of cases) {
    test(`${agent} ${path} → ${allowed ? "allowed" : "disallowed"}`, () => {
      expect(isAllowedByRobots(robots, agent, `${site}${path}`)).toBe(allowed);
    });
  }

  test("groups keep their user agents and the empty group exists", () => {
    expect(robots.groups.map((g) => g.userAgents)).toEqual([
      ["*"],
      ["foobot"],
      ["barbot", "bazbot"],
      ["quxbot"],
    ]);
    expect(robots.issues).toEqual([{ line: 17, message: `No "key: value" on this line: "EOF"` }]);
  });
});

describe("RFC 9309 §5.2 longest match", () => {
  const robots = parseRobotsTxt(
    "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n",
  );
  test("the longer disallow beats the shorter allow", () => {
    expect(isAllowedByRobots(robots, "foobot", `${site}/example/page/`)).toBe(true);
    expect(isAllowedByRobots(robots, "foobot", `${site}/example/page/disallowed.gif`)).toBe(false);
    expect(matchRobots(robots, "foobot", `${site}/example/page/disallowed.gif`).rule?.line).toBe(3);
  });
  test("allow wins a tie of equal length", () => {
    const tie = parseRobotsTxt("User-agent: *\nDisallow: /page\nAllow: /page\n");
    expect(isAllowedByRobots(tie, "any", `${site}/page`)).toBe(true);
    const tieStars = parseRobotsTxt("User-agent: *\nDisallow: /a/\nAllow: /a*\n");
    expect(matchRobots(tieStars, "any", `${site}/a/b`).rule?.allow).toBe(true);
    const midDollar = parseRobotsTxt("User-agent: *\nAllow: /a*\nDisallow: /a$x\n");
    expect(matchRobots(midDollar, "any", `${site}/a$x`).rule?.allow).toBe(false);
    expect(isAllowedByRobots(midDollar, "any", `${site}/a`)).toBe(true);
  });
});

describe("RFC 9309 §2.2.2 percent-encoding", () => {
  const table: [string, string][] = [
    ["/foo/bar?baz=quz", "/foo/bar?baz=quz"],
    ["/foo/bar/\u30c4", "/foo/bar/%E3%83%84"],
    ["/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"],
    ["/foo/bar/%62%61%7A", "/foo/bar/baz"],
    ["/foo/%7efoo", "/foo/~foo"],
    ["/a%2fb", "/a%2Fb"],
  ];
  for (const [raw, normalised] of table) {
    test(`${raw} → ${normalised}`, () => expect(normalisePath(raw)).toBe(normalised));
  }

  test("rules match URLs written either way", () => {
    const robots = parseRobotsTxt("User-agent: *\nDisallow: /foo/bar/\u30c4\nDisallow: /foo/bar/%62%61%7A\n");
    expect(isAllowedByRobots(robots, "x", `${site}/foo/bar/%E3%83%84`)).toBe(false);
    expect(isAllowedByRobots(robots, "x", `${site}/foo/bar/\u30c4`)).toBe(false);
    expect(isAllowedByRobots(robots, "x", `${site}/foo/bar/baz`)).toBe(false);
  });
});

describe("RFC 9309 §2.2.3 special characters", () => {
  test("$ anchors the end and * matches any run", () => {
    const robots = parseRobotsTxt(
      "User-agent: *\nDisallow: /\nAllow: /this/path/exactly$\nAllow: /this/*/exactly\n",
    );
    expect(isAllowedByRobots(robots, "x", `${site}/this/path/exactly`)).toBe(true);
    expect(isAllowedByRobots(robots, "x", `${site}/this/path/exactly/more`)).toBe(true);
    expect(isAllowedByRobots(robots, "x", `${site}/this/long/path/exactly`)).toBe(true);
    expect(isAllowedByRobots(robots, "x", `${site}/this/path/exact`)).toBe(false);
  });

  test("percent-encoded * and $ match those characters literally", () => {
    const robots = parseRobotsTxt(
      "User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /path/foo-%24\n",
    );
    expect(isAllowedByRobots(robots, "x", `${site}/path/file-with-a-*.html`)).toBe(false);
    expect(isAllowedByRobots(robots, "x", `${site}/path/file-with-a-b.html`)).toBe(true);
    expect(isAllowedByRobots(robots, "x", `${site}/path/foo-$`)).toBe(false);
    expect(isAllowedByRobots(robots, "x", `${site}/path/foo-`)).toBe(true);
  });

  test("matchesPattern handles many stars without blowing up", () => {
    const path = `/${"a".repeat(5000)}`;
    expect(matchesPattern(`/${"*a".repeat(50)}*b`, path)).toBe(false);
    expect(matchesPattern("/*a$", path)).toBe(true);
    expect(matchesPattern("/a*", "/b")).toBe(false);
  });
});

describe("parsing details", () => {
  test("/robots.txt is always allowed", () => {
    const robots = parseRobotsTxt("User-agent: *\nDisallow: /\n");
    expect(isAllowedByRobots(robots, "x", `${site}/robots.txt`)).toBe(true);
    expect(isAllowedByRobots(robots, "x", `${site}/`)).toBe(false);
  });

  test("an empty Disallow allows everything and no groups means allowed", () => {
    expect(isAllowedByRobots(parseRobotsTxt("User-agent: *\nDisallow:\n"), "x", `${site}/a`)).toBe(true);
    const none = parseRobotsTxt("# nothing here\n");
    expect(matchRobots(none, "x", `${site}/a`)).toEqual({ allowed: true, rule: null, group: "none" });
  });

  test("groups for the same agent are merged; a specific group replaces the * group", () => {
    const robots = parseRobotsTxt(
      "User-agent: a\nDisallow: /one\n\nUser-agent: *\nDisallow: /two\n\nUser-agent: A\nDisallow: /three\n",
    );
    expect(isAllowedByRobots(robots, "a", `${site}/one`)).toBe(false);
    expect(isAllowedByRobots(robots, "a", `${site}/three`)).toBe(false);
    expect(isAllowedByRobots(robots, "a", `${site}/two`)).toBe(true);
    expect(isAllowedByRobots(robots, "b", `${site}/two`)).toBe(false);
  });

  test("sitemaps are collected anywhere and resolved; comments, CRLF, BOM and crawl-delay", () => {
    const text =
      "\uFEFFSitemap: https://www.example.com/sitemap.xml\r\nUser-agent: * # all\r\nCrawl-delay: 2\r\n" +
      "Sitemap: /news-sitemap.xml\r\nDisallow: /private # keep out\r\nRule-before: nope\r\n";
    const robots = parseRobotsTxt(text, `${site}/robots.txt`);
    expect(robots.sitemaps).toEqual([`${site}/sitemap.xml`, `${site}/news-sitemap.xml`]);
    expect(robots.groups).toEqual([
      { userAgents: ["*"], crawlDelay: 2, rules: [{ allow: false, pattern: "/private", line: 5 }] },
    ]);
    expect(robots.issues.map((i) => i.line)).toEqual([6]);
  });

  test("an empty query is part of the path, as the URL requested it", () => {
    const robots = parseRobotsTxt("User-agent: *\nAllow: /some/path?\nDisallow: /another/path?\n");
    for (const url of [`${site}/another/path?`, `${site}/another/path?#top`, "/another/path?"]) {
      expect(isAllowedByRobots(robots, "x", url), url).toBe(false);
    }
    expect(isAllowedByRobots(robots, "x", `${site}/another/path`)).toBe(true);
    expect(matchRobots(robots, "x", `${site}/some/path?`).rule?.pattern).toBe("/some/path?");
  });

  test("rules before any user-agent are reported and ignored", () => {
    const robots = parseRobotsTxt("Disallow: /\nUser-agent: *\nAllow: /\n");
    expect(robots.issues[0]?.line).toBe(1);
    expect(isAllowedByRobots(robots, "x", `${site}/a`)).toBe(true);
  });

  test("content past 500 KiB is ignored", () => {
    const filler = `# ${"x".repeat(1000)}\n`.repeat(Math.ceil(ROBOTS_MAX_BYTES / 1003) + 1);
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`);
    expect(robots.truncated).toBe(true);
    expect(isAllowedByRobots(robots, "x", `${site}/early`)).toBe(false);
    expect(isAllowedByRobots(robots, "x", `${site}/late`)).toBe(true);
  });

  test("extractProductToken drops the version and comment", () => {
    expect(extractProductToken("SiteAuditBot/1.0 (+https://example.com/bot)")).toBe("SiteAuditBot");
    expect(extractProductToken("*")).toBe("*");
  });
});

describe("checkBotAccess", () => {
  test("reports each AI and search bot", () => {
    const robots = parseRobotsTxt("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin\n");
    const access = checkBotAccess(robots, `${site}/blog/post`);
    const byToken = Object.fromEntries(access.map((a) => [a.token, a]));
    expect(byToken.GPTBot).toMatchObject({ kind: "ai", allowed: false, group: "specific" });
    expect(byToken.ClaudeBot).toMatchObject({ kind: "ai", allowed: true, group: "wildcard" });
    expect(byToken.Googlebot).toMatchObject({ kind: "search", allowed: true });
    expect(checkBotAccess(robots, `${site}/admin/x`).every((a) => !a.allowed)).toBe(true);
  });
});

describe("fetchRobotsTxt (RFC 9309 §2.3.1)", () => {
  let server: FixtureServer;
  let status = 200;
  let body = "User-agent: *\nDisallow: /private\nSitemap: /sitemap.xml\n";
  const fetcher = createGuardedFetch({ allowPrivateTargets: "loopback" });

  beforeAll(async () => {
    server = await startFixtureServer({
      routes: {
        "/robots.txt": (_req, res) => {
          res.writeHead(status, { "content-type": "text/plain" });
          res.end(body);
        },
        "/moved/robots.txt": (_req, res) => {
          res.writeHead(301, { location: "/robots.txt" });
          res.end();
        },
      },
    });
  });
  afterAll(() => server.close());

  test("2xx is parsed, sitemaps resolved against the final URL", async () => {
    status = 200;
    const result = await fetchRobotsTxt(fetcher, `${server.url}/some/page`);
    expect(result.url).toBe(`${server.url}/robots.txt`);
    expect(result.robots.mode).toBe("rules");
    expect(result.robots.sitemaps).toEqual([`${server.url}/sitemap.xml`]);
    expect(isAllowedByRobots(result.robots, "x", `${server.url}/private/a`)).toBe(false);
  });

  test.each([
    [404, "allow-all"],
    [403, "allow-all"],
    [429, "disallow-all"],
    [500, "disallow-all"],
    [503, "disallow-all"],
  ])("HTTP %i → %s", async (code, mode) => {
    status = code;
    const result = await fetchRobotsTxt(fetcher, server.url);
    expect(result.status).toBe(code);
    expect(result.robots.mode).toBe(mode);
    expect(isAllowedByRobots(result.robots, "x", `${server.url}/page`)).toBe(mode === "allow-all");
  });

  test("an unreachable host is disallow-all with the fetch error", async () => {
    const closed = await startFixtureServer({});
    await closed.close();
    const result = await fetchRobotsTxt(fetcher, closed.url);
    expect(result.robots.mode).toBe("disallow-all");
    expect(result.error?.code).toBe("CONNECT_ERROR");
    body = "User-agent: *\nDisallow: /private\nSitemap: /sitemap.xml\n";
  });

  test("a forbidden target is thrown, not read as unreachable", async () => {
    const strict = createGuardedFetch();
    await expect(fetchRobotsTxt(strict, server.url)).rejects.toMatchObject({ code: "TARGET_FORBIDDEN" });
  });
});
