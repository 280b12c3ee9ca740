// Ported from Google's robots.txt parser and matcher tests: github.com/google/robotstxt, robots_test.cc and
// reporting_robots_test.cc at commit
// 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9. Copyright 2019 Google LLC, Apache License 2.0
// (https://www.apache.org/licenses/LICENSE-2.0). Each test keeps Google's name and its cases; where this product
// decides differently on purpose, the case says so and why.
import { describe, expect, test } from "vitest";
import {
  isAllowedByRobots,
  isValidProductToken,
  normalisePath,
  parseRobotsTxt,
  ROBOTS_MAX_LINE_BYTES,
  type Robots,
} from "./robots";

/** Google's IsUserAgentAllowed: one crawler, one robots.txt body, one URL. */
const allowed = (robotstxt: string, agent: string, url: string) =>
  isAllowedByRobots(parseRobotsTxt(robotstxt), agent, url);

/** Google's "valid directives": user-agent, allow, disallow and sitemap lines, even out of place. */
function validDirectives(robots: Robots): number {
  const inGroups = robots.groups.reduce(
    (n, g) => n + g.userAgents.length + new Set(g.rules.map((r) => r.line)).size,
    0,
  );
  const outside = robots.issues.filter((i) => i.message.includes("before any user-agent")).length;
  return inGroups + outside + robots.sitemaps.length;
}

/** The highest line that held a rule. */
const lastRuleLine = (robots: Robots) =>
  Math.max(...robots.groups.flatMap((g) => g.rules.map((r) => r.line)));

test("GoogleOnly_SystemTest", () => {
  const robotstxt = "user-agent: FooBot\ndisallow: /\n";
  expect(allowed("", "FooBot", "")).toBe(true);
  expect(allowed(robotstxt, "", "")).toBe(true);
  // An empty URL is "/", which the rule disallows.
  expect(allowed(robotstxt, "FooBot", "")).toBe(false);
  expect(allowed("", "", "")).toBe(true);
});

test("ID_LineSyntax_Line: a missing colon is assumed", () => {
  const url = "http://foo.bar/x/y";
  expect(allowed("user-agent: FooBot\ndisallow: /\n", "FooBot", url)).toBe(false);
  expect(allowed("foo: FooBot\nbar: /\n", "FooBot", url)).toBe(true);
  expect(allowed("user-agent FooBot\ndisallow /\n", "FooBot", url)).toBe(false);
  // Three words without a colon are no directive at all.
  expect(allowed("user-agent FooBot\ndisallow / x\n", "FooBot", url)).toBe(true);
  expect(parseRobotsTxt("user-agent FooBot\ndisallow /\n").issues.map((i) => i.line)).toEqual([1, 2]);
});

test("ID_LineSyntax_Groups", () => {
  const robotstxt =
    "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\n" +
    "allow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n";
  const url = (p: string) => `http://foo.bar/${p}`;
  expect(allowed(robotstxt, "FooBot", url("x/b"))).toBe(true);
  expect(allowed(robotstxt, "FooBot", url("z/d"))).toBe(true);
  expect(allowed(robotstxt, "FooBot", url("y/c"))).toBe(false);
  expect(allowed(robotstxt, "BarBot", url("y/c"))).toBe(true);
  expect(allowed(robotstxt, "BarBot", url("w/a"))).toBe(true);
  expect(allowed(robotstxt, "BarBot", url("z/d"))).toBe(false);
  expect(allowed(robotstxt, "BazBot", url("z/d"))).toBe(true);
  // Rules outside any group are ignored.
  for (const agent of ["FooBot", "BarBot", "BazBot"])
    expect(allowed(robotstxt, agent, url("foo/bar/"))).toBe(false);
});

describe("ID_LineSyntax_Groups_OtherRules: lines that are not rules do not end a group", () => {
  test.each([
    "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n",
    "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n",
    // Crawl-delay is not a rule of RFC 9309 either.
    "User-agent: FooBot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /\n",
  ])("%j", (robotstxt) => {
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/")).toBe(false);
    expect(allowed(robotstxt, "BarBot", "http://foo.bar/")).toBe(false);
  });
});

test("ID_REPLineNamesCaseInsensitive", () => {
  for (const robotstxt of [
    "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
    "user-agent: FooBot\nallow: /x/\ndisallow: /\n",
    "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
  ]) {
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/x/y")).toBe(true);
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/a/b")).toBe(false);
  }
});

test("ID_VerifyValidUserAgentsToObey", () => {
  for (const token of ["Foobot", "Foobot-Bar", "Foo_Bar"]) expect(isValidProductToken(token)).toBe(true);
  for (const token of ["", "ツ", "Foobot*", " Foobot ", "Foobot/2.1", "Foobot Bar"]) {
    expect(isValidProductToken(token)).toBe(false);
  }
});

test("ID_UserAgentValueCaseInsensitive", () => {
  for (const name of ["FOO BAR", "foo bar", "FoO bAr"]) {
    const robotstxt = `User-Agent: ${name}\nAllow: /x/\nDisallow: /\n`;
    for (const agent of ["Foo", "foo"]) {
      expect(allowed(robotstxt, agent, "http://foo.bar/x/y")).toBe(true);
      expect(allowed(robotstxt, agent, "http://foo.bar/a/b")).toBe(false);
    }
  }
});

test("GoogleOnly_AcceptUserAgentUpToFirstSpace", () => {
  const robotstxt = "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n";
  expect(allowed(robotstxt, "Foo", "http://foo.bar/x/y")).toBe(true);
  // "Foo Bar" is not a product token, so it names no group and the * group applies.
  expect(allowed(robotstxt, "Foo Bar", "http://foo.bar/x/y")).toBe(false);
});

test("ID_GlobalGroups_Secondary", () => {
  const url = "http://foo.bar/x/y";
  const global = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n";
  const onlySpecific =
    "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n";
  expect(allowed("", "FooBot", url)).toBe(true);
  expect(allowed(global, "FooBot", url)).toBe(false);
  expect(allowed(global, "BarBot", url)).toBe(true);
  expect(allowed(onlySpecific, "QuxBot", url)).toBe(true);
  // Google-specific: "*" followed by a blank and more is still the * group.
  expect(allowed("user-agent: * everyone\ndisallow: /\n", "QuxBot", url)).toBe(false);
});

test("ID_AllowDisallow_Value_CaseSensitive", () => {
  expect(allowed("user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y")).toBe(false);
  expect(allowed("user-agent: FooBot\ndisallow: /X/\n", "FooBot", "http://foo.bar/x/y")).toBe(true);
});

test("ID_LongestMatch", () => {
  const url = "http://foo.bar/x/page.html";
  const foo = (rules: string) => `user-agent: FooBot\n${rules}`;
  expect(allowed(foo("disallow: /x/page.html\nallow: /x/\n"), "FooBot", url)).toBe(false);
  expect(allowed(foo("allow: /x/page.html\ndisallow: /x/\n"), "FooBot", url)).toBe(true);
  expect(allowed(foo("allow: /x/page.html\ndisallow: /x/\n"), "FooBot", "http://foo.bar/x/")).toBe(false);
  // Equivalent allow and disallow: allow is used.
  expect(allowed(foo("disallow: \nallow: \n"), "FooBot", url)).toBe(true);
  expect(allowed(foo("disallow: /\nallow: /\n"), "FooBot", url)).toBe(true);
  expect(allowed(foo("disallow: /x\nallow: /x/\n"), "FooBot", "http://foo.bar/x")).toBe(false);
  expect(allowed(foo("disallow: /x\nallow: /x/\n"), "FooBot", "http://foo.bar/x/")).toBe(true);
  expect(allowed(foo("disallow: /x/page.html\nallow: /x/page.html\n"), "FooBot", url)).toBe(true);
  // Longest match wins.
  expect(allowed(foo("allow: /page\ndisallow: /*.html\n"), "FooBot", "http://foo.bar/page.html")).toBe(false);
  expect(allowed(foo("allow: /page\ndisallow: /*.html\n"), "FooBot", "http://foo.bar/page")).toBe(true);
  expect(allowed(foo("allow: /x/page.\ndisallow: /*.html\n"), "FooBot", url)).toBe(true);
  expect(allowed(foo("allow: /x/page.\ndisallow: /*.html\n"), "FooBot", "http://foo.bar/x/y.html")).toBe(
    false,
  );
  // The most specific group for FooBot allows /x/page implicitly.
  const groups = "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n";
  expect(allowed(groups, "FooBot", "http://foo.bar/x/page")).toBe(true);
  expect(allowed(groups, "FooBot", "http://foo.bar/y/page")).toBe(false);
});

describe("ID_Encoding", () => {
  test("a query holding a URL stays as written", () => {
    const robotstxt = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n";
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par")).toBe(
      true,
    );
  });

  test("a 3-byte character in a rule, written raw or percent-encoded", () => {
    for (const rule of ["/foo/bar/ツ", "/foo/bar/%E3%83%84"]) {
      const robotstxt = `User-agent: FooBot\nDisallow: /\nAllow: ${rule}\n`;
      expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar/%E3%83%84")).toBe(true);
      // Deliberate difference: Google's matcher expects its caller to percent-encode the URL and so refuses the
      // raw "ツ". This function is that caller: it encodes the URL as a crawler requests it, so both agree.
      expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar/ツ")).toBe(true);
    }
  });

  test("percent-encoded unreserved characters", () => {
    const robotstxt = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n";
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar/%62%61%7A")).toBe(true);
    // Deliberate difference: Google compares the escapes literally and calls relying on either outcome unsafe;
    // here "%62%61%7A" and "baz" are the same path (RFC 3986 §6.2.2.2), as in Python's urllib.robotparser.
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar/baz")).toBe(true);
  });
});

describe("ID_SpecialCharacters", () => {
  test("* matches any run", () => {
    const robotstxt = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n";
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar/quz")).toBe(false);
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/quz")).toBe(true);
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo//quz")).toBe(true);
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bax/quz")).toBe(true);
  });
  test("$ anchors the end", () => {
    const robotstxt = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n";
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar")).toBe(false);
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar/qux")).toBe(true);
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar/")).toBe(true);
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar/baz")).toBe(true);
  });
  test("# starts a comment", () => {
    const robotstxt = "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n";
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/bar")).toBe(true);
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/foo/quz")).toBe(false);
  });
});

test("GoogleOnly_IndexHTMLisDirectory", () => {
  const robotstxt = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n";
  expect(allowed(robotstxt, "foobot", "http://foo.com/allowed-slash/")).toBe(true);
  expect(allowed(robotstxt, "foobot", "http://foo.com/allowed-slash/index.htm")).toBe(false);
  expect(allowed(robotstxt, "foobot", "http://foo.com/allowed-slash/index.html")).toBe(true);
  expect(allowed(robotstxt, "foobot", "http://foo.com/anyother-url")).toBe(false);
  // Only the directory itself, not what is under it.
  expect(allowed(robotstxt, "foobot", "http://foo.com/allowed-slash/other")).toBe(false);
});

describe("GoogleOnly_LineTooLong", () => {
  const maxLineLen = 2083 * 8;
  test("the limit is Google's", () => expect(ROBOTS_MAX_LINE_BYTES).toBe(maxLineLen - 1));

  test("a disallow rule cut at the limit matches as cut", () => {
    let longline = "/x/";
    const maxLength = maxLineLen - longline.length - "disallow: ".length + 1;
    while (longline.length < maxLength) longline += "a";
    const robotstxt = `user-agent: FooBot\ndisallow: ${longline}/qux\n`;
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/fux")).toBe(true);
    expect(allowed(robotstxt, "FooBot", `http://foo.bar${longline}/fux`)).toBe(false);
    expect(parseRobotsTxt(robotstxt).issues.map((i) => i.line)).toEqual([2]);
  });

  test("allow rules cut at the limit", () => {
    let a = "/x/";
    let b = "/x/";
    const maxLength = maxLineLen - a.length - "allow: ".length + 1;
    while (a.length < maxLength) {
      a += "a";
      b += "b";
    }
    const robotstxt = `user-agent: FooBot\ndisallow: /\nallow: ${a}/qux\nallow: ${b}/qux\n`;
    expect(allowed(robotstxt, "FooBot", "http://foo.bar/")).toBe(false);
    expect(allowed(robotstxt, "FooBot", `http://foo.bar${a}/qux`)).toBe(true);
    expect(allowed(robotstxt, "FooBot", `http://foo.bar${b}/fux`)).toBe(true);
  });

  test("a cut never splits a character", () => {
    const robotstxt = `user-agent: FooBot\ndisallow: /${"é".repeat(maxLineLen)}\n`;
    const [rule] = parseRobotsTxt(robotstxt).groups[0]!.rules;
    expect(rule!.pattern).toMatch(/^\/(?:%C3%A9)+$/);
    expect(Buffer.byteLength(`disallow: ${decodeURIComponent(rule!.pattern)}`)).toBeLessThanOrEqual(
      ROBOTS_MAX_LINE_BYTES,
    );
  });
});

describe("GoogleOnly_DocumentationChecks", () => {
  const check = (rule: string, yes: string[], no: string[]) => {
    const robotstxt = `user-agent: FooBot\ndisallow: /\nallow: ${rule}\n`;
    for (const path of yes) expect(allowed(robotstxt, "FooBot", `http://foo.bar${path}`), path).toBe(true);
    for (const path of no) expect(allowed(robotstxt, "FooBot", `http://foo.bar${path}`), path).toBe(false);
  };
  const fish = [
    "/fish",
    "/fish.html",
    "/fish/salmon.html",
    "/fishheads",
    "/fishheads/yummy.html",
    "/fish.html?id=anything",
  ];

  test("/fish", () => check("/fish", fish, ["/bar", "/Fish.asp", "/catfish", "/?id=fish"]));
  test("/fish* equals /fish", () => check("/fish*", fish, ["/bar", "/Fish.bar", "/catfish", "/?id=fish"]));
  test("/fish/ does not equal /fish", () =>
    check(
      "/fish/",
      ["/fish/", "/fish/salmon", "/fish/?salmon", "/fish/salmon.html", "/fish/?id=anything"],
      ["/bar", "/fish", "/fish.html", "/Fish/Salmon.html"],
    ));
  test("/*.php", () =>
    check(
      "/*.php",
      [
        "/filename.php",
        "/folder/filename.php",
        "/folder/filename.php?parameters",
        "//folder/any.php.file.html",
        "/filename.php/",
        "/index?f=filename.php/",
      ],
      ["/bar", "/php/", "/index?php", "/windows.PHP"],
    ));
  test("/*.php$", () =>
    check(
      "/*.php$",
      ["/filename.php", "/folder/filename.php"],
      [
        "/bar",
        "/filename.php?parameters",
        "/filename.php/",
        "/filename.php5",
        "/php/",
        "/filename?php",
        "/aaaphpaaa",
        "//windows.PHP",
      ],
    ));
  test("/fish*.php", () =>
    check("/fish*.php", ["/fish.php", "/fishheads/catfish.php?parameters"], ["/bar", "/Fish.PHP"]));

  test("order of precedence for group-member records", () => {
    const foo = (rules: string) => `user-agent: FooBot\n${rules}`;
    expect(allowed(foo("allow: /p\ndisallow: /\n"), "FooBot", "http://example.com/page")).toBe(true);
    expect(
      allowed(foo("allow: /folder\ndisallow: /folder\n"), "FooBot", "http://example.com/folder/page"),
    ).toBe(true);
    expect(allowed(foo("allow: /page\ndisallow: /*.htm\n"), "FooBot", "http://example.com/page.htm")).toBe(
      false,
    );
    expect(allowed(foo("allow: /$\ndisallow: /\n"), "FooBot", "http://example.com/")).toBe(true);
    expect(allowed(foo("allow: /$\ndisallow: /\n"), "FooBot", "http://example.com/page.html")).toBe(false);
  });
});

describe("ID_LinesNumbersAreCountedCorrectly: LF, CRLF, CR, mixed, no final newline", () => {
  test.each([
    ["unix", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n"],
    ["dos", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n"],
    ["mac", "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r"],
    ["no final newline", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /"],
    ["mixed", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /"],
  ])("%s", (_name, text) => {
    const robots = parseRobotsTxt(text);
    expect(validDirectives(robots)).toBe(4);
    expect(lastRuleLine(robots)).toBe(6);
    expect(robots.issues).toEqual([]);
  });
});

describe("ID_NonStandardLineExample_Sitemap", () => {
  const loc = "http://foo.bar/sitemap.xml";
  const groups = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n";
  test("after the groups", () =>
    expect(parseRobotsTxt(`${groups}Sitemap: ${loc}\n`).sitemaps).toEqual([loc]));
  test("anywhere in the file", () =>
    expect(parseRobotsTxt(`Sitemap: ${loc}\n${groups}`).sitemaps).toEqual([loc]));
  test("Google's accepted spelling", () =>
    expect(parseRobotsTxt(`Site-map: ${loc}\n`).sitemaps).toEqual([loc]));
});

describe("TestGetPathParamsQuery: the path a URL is matched by", () => {
  // Each URL against "Allow: <expected>$" with everything else disallowed: allowed exactly when the path is that.
  test.each([
    ["", "/"],
    ["http://www.example.com", "/"],
    ["http://www.example.com/", "/"],
    ["http://www.example.com/a", "/a"],
    ["http://www.example.com/a/", "/a/"],
    ["http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"],
    ["http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"],
    ["example.com", "/"],
    ["example.com/", "/"],
    ["example.com/a", "/a"],
    ["example.com/a/", "/a/"],
    ["example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"],
    ["a", "/"],
    ["a/", "/"],
    ["/a", "/a"],
    ["a/b", "/b"],
    ["example.com?a", "/?a"],
    ["example.com/a;b#c", "/a;b"],
    ["//a/b/c", "/b/c"],
  ])("%j → %j", (url, path) => {
    const robotstxt = `User-agent: *\nDisallow: /\nAllow: ${path}$\n`;
    expect(allowed(robotstxt, "FooBot", url)).toBe(true);
    expect(allowed(robotstxt, "FooBot", `${url}${url.includes("#") ? "" : "#x"}`)).toBe(true);
    expect(allowed(`User-agent: *\nDisallow: /\nAllow: ${path}x$\n`, "FooBot", url)).toBe(false);
  });
});

test("TestMaybeEscapePattern", () => {
  expect(normalisePath("http://www.example.com")).toBe("http://www.example.com");
  expect(normalisePath("/a/b/c")).toBe("/a/b/c");
  expect(normalisePath("á")).toBe("%C3%A1");
  expect(normalisePath("%aa")).toBe("%AA");
});

describe("reporting_robots_test: LinesNumbersAreCountedCorrectly, what each line was read as", () => {
  const file =
    "User-Agent: foo\n" + // 1
    "Allow: /some/path\n" + // 2
    "User-Agent bar # no\n" + // 3: missing colon, still a user-agent line
    "absolutely random line\n" + // 4: no directive
    "#so comment, much wow\n" + // 5
    "\n" + // 6
    "unicorns: /extinct\n" + // 7: unknown
    "noarchive: /some\n" + // 8: a page directive, not read here
    "Disallow: /\n" + // 9
    "Error #and comment\n" + // 10: no directive
    "useragent: baz\n" + // 11: accepted misspelling
    "disallaw: /some\n" + // 12: accepted misspelling
    "site-map: https://e/s.xml #comment\n" + // 13: accepted misspelling
    "sitemap: https://e/t.xml\n" + // 14
    "Noarchive: /someCapital\n"; // 15
  const robots = parseRobotsTxt(file);

  test("8 valid directives", () => expect(validDirectives(robots)).toBe(8));
  test("the groups and sitemaps", () => {
    expect(robots.groups).toEqual([
      { userAgents: ["foo"], rules: [{ allow: true, pattern: "/some/path", line: 2 }] },
      { userAgents: ["bar"], rules: [{ allow: false, pattern: "/", line: 9 }] },
      { userAgents: ["baz"], rules: [{ allow: false, pattern: "/some", line: 12 }] },
    ]);
    expect(robots.sitemaps).toEqual(["https://e/s.xml", "https://e/t.xml"]);
  });
  test("every line read other than as written is reported, on its line", () => {
    expect(robots.issues.map((i) => i.line)).toEqual([3, 4, 7, 8, 10, 11, 12, 13, 15]);
    const message = (line: number) => robots.issues.find((i) => i.line === line)?.message;
    expect(message(3)).toMatch(/^Missing ":"/);
    expect(message(4)).toMatch(/^No "key: value"/);
    expect(message(7)).toMatch(/^Unknown directive "unicorns"/);
    expect(message(8)).toMatch(/"noarchive" is not read in robots.txt/);
    expect(message(11)).toBe('"useragent" is read as "user-agent"');
    expect(message(13)).toBe('"site-map" is read as "sitemap"');
  });
  test("LinesTooLongReportedCorrectly", () => {
    let longline = "/x/";
    while (longline.length < 2084 * 8) longline += "a";
    const cut = parseRobotsTxt(`user-agent: foo\ndisallow: ${longline}\nallow: /\n`);
    expect(validDirectives(cut)).toBe(3);
    expect(cut.issues).toEqual([
      { line: 2, message: expect.stringMatching(/^Line longer than 16663 bytes/) },
    ]);
    expect(cut.groups[0]!.rules.map((r) => r.line)).toEqual([2, 3]);
  });
});
