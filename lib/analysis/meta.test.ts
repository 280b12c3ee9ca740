import { describe, expect, test } from "vitest";
import { analyzeMeta } from "./meta";
import { parseLinkHeader } from "./meta-links";
import { parsePage } from "./page";
import type { HeaderMap } from "./types";

const URL_ = "https://example.com/guide";

function meta(head: string, opts: { headers?: HeaderMap; lang?: string; url?: string; body?: string } = {}) {
  const lang = opts.lang === undefined ? ' lang="en"' : opts.lang ? ` lang="${opts.lang}"` : "";
  const html = `<!doctype html><html${lang}><head>${head}</head><body>${opts.body ?? ""}</body></html>`;
  return analyzeMeta(parsePage({ url: opts.url ?? URL_, html, headers: opts.headers }));
}

const status = (report: ReturnType<typeof meta>, id: string) =>
  report.checks.find((c) => c.id === id)?.status;
const message = (report: ReturnType<typeof meta>, id: string) =>
  report.checks.find((c) => c.id === id)?.message ?? "";

describe("title", () => {
  test.each([
    ["", "fail"],
    ["<title>  </title>", "fail"],
    ["<title>Short</title>", "warn"],
    ["<title>A practical guide to HTTP caching headers</title>", "pass"],
    [`<title>${"Very long title words ".repeat(4)}</title>`, "warn"],
    ["<title>First proper title</title><title>Second proper title</title>", "warn"],
  ])("%s → %s", (head, expected) => {
    expect(status(meta(head), "meta.title")).toBe(expected);
  });

  test("an SVG <title> in the body is not the page title", () => {
    const report = meta("", { body: "<svg><title>Icon label here</title></svg>" });
    expect(report.title).toBeUndefined();
    expect(status(report, "meta.title")).toBe("fail");
  });
});

describe("description", () => {
  test.each([
    ["", "fail"],
    ['<meta name="description" content="">', "fail"],
    ['<meta name="description" content="Too short.">', "warn"],
    [`<meta name="Description" content="${"x".repeat(120)}">`, "pass"],
    [`<meta name="description" content="${"x".repeat(161)}">`, "warn"],
  ])("%s → %s", (head, expected) => {
    expect(status(meta(head), "meta.description")).toBe(expected);
  });
});

describe("canonical", () => {
  test.each([
    ["", "warn", /No canonical/],
    [`<link rel="canonical" href="${URL_}">`, "pass", /points to this page/],
    [`<link rel="canonical" href="${URL_}#top">`, "pass", /points to this page/],
    ['<link rel="canonical" href="/guide">', "warn", /relative/],
    ['<link rel="canonical" href="https://example.com/other">', "warn", /another URL/],
    [
      `<link rel="canonical" href="${URL_}"><link rel="canonical" href="https://example.com/b">`,
      "fail",
      /2 different/,
    ],
    ['<link rel="canonical" href="">', "fail", /empty or invalid/],
  ])("%s → %s", (head, expected, msg) => {
    const report = meta(head);
    expect(status(report, "meta.canonical")).toBe(expected);
    expect(message(report, "meta.canonical")).toMatch(msg);
  });

  test("a Link header canonical counts; one in <body> does not", () => {
    expect(status(meta("", { headers: { link: [`<${URL_}>; rel="canonical"`] } }), "meta.canonical")).toBe(
      "pass",
    );
    const body = meta("", { body: `<link rel="canonical" href="${URL_}">` });
    expect(message(body, "meta.canonical")).toMatch(/inside <body> is ignored/);
  });
});

describe("hreflang", () => {
  const alt = (lang: string, href: string) => `<link rel="alternate" hreflang="${lang}" href="${href}">`;

  test("none is fine for a single-language page", () => {
    expect(status(meta(""), "meta.hreflang")).toBe("pass");
  });

  test("a complete set passes but still says reciprocity cannot be verified", () => {
    const report = meta(
      alt("en", URL_) + alt("de-DE", "https://example.com/de/guide") + alt("x-default", URL_),
    );
    expect(status(report, "meta.hreflang")).toBe("pass");
    expect(message(report, "meta.hreflang")).toMatch(/can't be verified from a single page/);
    expect(report.hreflang).toHaveLength(3);
  });

  test("invalid codes fail with the reason, including the en-UK mistake", () => {
    const report = meta(
      alt("en-UK", URL_) +
        alt("english", "https://example.com/en") +
        alt("de_DE", "https://example.com/de") +
        alt("x-default", URL_),
    );
    expect(status(report, "meta.hreflang")).toBe("fail");
    const msg = message(report, "meta.hreflang");
    expect(msg).toMatch(/GB, not UK/);
    expect(msg).toMatch(/"english" is not an ISO 639-1/);
    expect(msg).toMatch(/underscore/);
  });

  test("one code pointing to two URLs fails", () => {
    const report = meta(
      alt("fr", "https://example.com/fr") + alt("fr", "https://example.com/fr2") + alt("en", URL_),
    );
    expect(message(report, "meta.hreflang")).toMatch(/"fr" points to 2 different URLs/);
  });

  test("missing x-default, self reference and absolute URLs are warnings", () => {
    const report = meta(alt("de", "/de/guide") + alt("fr", "https://example.com/fr/guide"));
    expect(status(report, "meta.hreflang")).toBe("warn");
    const msg = message(report, "meta.hreflang");
    expect(msg).toMatch(/x-default/);
    expect(msg).toMatch(/self-referencing/);
    expect(msg).toMatch(/1 entry is relative/);
  });

  test("hreflang from the Link header is read too", () => {
    const report = meta("", {
      headers: {
        link: [
          `<${URL_}>; rel="alternate"; hreflang="en", <https://example.com/es>; rel="alternate"; hreflang="es"`,
        ],
      },
    });
    expect(report.hreflang.map((h) => h.lang)).toEqual(["en", "es"]);
  });
});

test.each([
  [undefined, "pass"],
  ["", "warn"],
  ["en-US", "pass"],
  ["zh-Hant-TW", "pass"],
  ["english", "warn"],
])("html lang %s → %s", (lang, expected) => {
  expect(status(meta("", { lang: lang as string }), "meta.lang")).toBe(expected);
});

test.each([
  ["", "fail"],
  ['<meta name="viewport" content="width=device-width, initial-scale=1">', "pass"],
  ['<meta name="viewport" content="width=1024">', "warn"],
  ['<meta name="viewport" content="width=device-width, user-scalable=no">', "warn"],
  ['<meta name="viewport" content="width=device-width, maximum-scale=1">', "warn"],
])("viewport %s → %s", (head, expected) => {
  expect(status(meta(head), "meta.viewport")).toBe(expected);
});

describe("robots directives", () => {
  test.each([
    ["", {}, "pass", false],
    ['<meta name="robots" content="index, follow">', {}, "pass", false],
    ['<meta name="robots" content="noindex">', {}, "fail", true],
    ['<meta name="googlebot" content="NOINDEX">', {}, "fail", true],
    ['<meta name="robots" content="none">', {}, "fail", true],
    ['<meta name="robots" content="nofollow">', {}, "warn", false],
    ["", { "x-robots-tag": ["noindex, nofollow"] }, "fail", true],
    ["", { "x-robots-tag": ["googlebot: noindex"] }, "fail", true],
    // A directive aimed at another crawler does not de-index the page for search.
    ["", { "x-robots-tag": ["otherbot: noindex"] }, "pass", false],
    // max-snippet:… is a directive with a value, not a user-agent prefix.
    ["", { "x-robots-tag": ["max-snippet:50, noarchive"] }, "pass", false],
    ['<meta name="somebot" content="noindex">', {}, "pass", false],
  ])("%s %o → %s", (head, headers, expected, noindex) => {
    const report = meta(head, { headers: headers as HeaderMap });
    expect(status(report, "meta.robots")).toBe(expected);
    expect(report.robots.noindex).toBe(noindex);
  });
});

test("open graph needs og:title and og:image", () => {
  expect(status(meta('<meta property="og:title" content="T">'), "meta.open-graph")).toBe("warn");
  expect(
    status(
      meta('<meta property="og:title" content="T"><meta property="og:image" content="https://e.com/i.png">'),
      "meta.open-graph",
    ),
  ).toBe("pass");
});

test("every check is present exactly once, in a stable order", () => {
  expect(meta("").checks.map((c) => c.id)).toEqual([
    "meta.title",
    "meta.description",
    "meta.canonical",
    "meta.hreflang",
    "meta.lang",
    "meta.viewport",
    "meta.robots",
    "meta.open-graph",
  ]);
});

test("parseLinkHeader reads several links with quoted parameters", () => {
  expect(parseLinkHeader('<https://a/>; rel="canonical", </b>; rel=alternate; hreflang="de-DE"')).toEqual([
    { url: "https://a/", params: { rel: "canonical" } },
    { url: "/b", params: { rel: "alternate", hreflang: "de-DE" } },
  ]);
});
