import { clip, createCheck, headerValues } from "./check";
import { explainLanguageTagProblem } from "./iso-codes";
import { analyzeCanonical, checkHreflang, collectHreflang, type HreflangEntry } from "./meta-links";
import type { Check, ParsedPage } from "./types";

export interface MetaReport {
  title: string | undefined;
  description: string | undefined;
  canonical: string | undefined;
  lang: string | undefined;
  hreflang: HreflangEntry[];
  robots: { noindex: boolean; nofollow: boolean; directives: string[] };
  checks: Check[];
}

const TITLE = { min: 10, max: 60 };
const DESCRIPTION = { min: 50, max: 160 };

export function analyzeMeta(page: ParsedPage): MetaReport {
  const { $ } = page;
  const titles = $("title")
    .toArray()
    .filter((el) => $(el).closest("svg").length === 0)
    .map((el) => $(el).text().replace(/\s+/g, " ").trim());
  const descriptions = $('meta[name="description" i]')
    .toArray()
    .map((el) => (el.attribs.content ?? "").replace(/\s+/g, " ").trim());
  const canonical = analyzeCanonical(page);
  const hreflang = collectHreflang(page);
  const lang = $("html").attr("lang")?.trim();
  const robots = readRobotsDirectives(page);
  const checks = [
    checkTitle(titles),
    checkDescription(descriptions),
    canonical.check,
    checkHreflang(page, hreflang),
    checkLang(lang),
    checkViewport(page),
    robots.check,
    checkOpenGraph(page),
  ];
  return {
    title: titles[0],
    description: descriptions[0],
    canonical: canonical.href,
    lang: lang || undefined,
    hreflang,
    robots: { noindex: robots.noindex, nofollow: robots.nofollow, directives: robots.directives },
    checks,
  };
}

function checkTitle(titles: string[]): Check {
  const title = titles[0];
  if (title === undefined || title === "") {
    return createCheck(
      "meta.title",
      "meta",
      "fail",
      "The page has no <title>. Add a unique, descriptive title of 10–60 characters; it is the headline of search results.",
      [titles.length ? "<title></title>" : "<title>: (absent)"],
    );
  }
  const evidence = [`<title>${clip(title, 200)}</title> (${title.length} characters)`];
  if (titles.length > 1) {
    return createCheck(
      "meta.title",
      "meta",
      "warn",
      `The page has ${titles.length} <title> elements; browsers and crawlers use only the first. Keep one.`,
      titles.map((t) => `<title>${clip(t, 100)}</title>`),
    );
  }
  if (title.length < TITLE.min) {
    return createCheck(
      "meta.title",
      "meta",
      "warn",
      `The title is only ${title.length} characters. Describe the page in 10–60 characters, leading with its main topic.`,
      evidence,
    );
  }
  if (title.length > TITLE.max) {
    return createCheck(
      "meta.title",
      "meta",
      "warn",
      `The title is ${title.length} characters and will likely be cut off in results. Keep it under 60, most important words first.`,
      evidence,
    );
  }
  return createCheck(
    "meta.title",
    "meta",
    "pass",
    "The title is present and 10–60 characters long.",
    evidence,
  );
}

function checkDescription(descriptions: string[]): Check {
  const description = descriptions[0];
  if (description === undefined || description === "") {
    return createCheck(
      "meta.description",
      "meta",
      "fail",
      'There is no meta description. Add `<meta name="description">` of 50–160 characters summarising the page; engines use it for snippets.',
      [descriptions.length ? '<meta name="description" content="">' : '<meta name="description">: (absent)'],
    );
  }
  const evidence = [`description: "${clip(description, 200)}" (${description.length} characters)`];
  if (descriptions.length > 1) {
    return createCheck(
      "meta.description",
      "meta",
      "warn",
      `The page has ${descriptions.length} meta descriptions. Keep exactly one.`,
      descriptions.map((d) => clip(d, 100)),
    );
  }
  if (description.length < DESCRIPTION.min) {
    return createCheck(
      "meta.description",
      "meta",
      "warn",
      `The meta description is only ${description.length} characters. Summarise the page in 50–160 characters.`,
      evidence,
    );
  }
  if (description.length > DESCRIPTION.max) {
    return createCheck(
      "meta.description",
      "meta",
      "warn",
      `The meta description is ${description.length} characters and will be truncated. Keep it within 160.`,
      evidence,
    );
  }
  return createCheck(
    "meta.description",
    "meta",
    "pass",
    "The meta description is present and 50–160 characters long.",
    evidence,
  );
}

function checkLang(lang: string | undefined): Check {
  if (!lang) {
    return createCheck(
      "meta.lang",
      "meta",
      "warn",
      'The <html> element has no lang attribute. Declare the language (e.g. <html lang="en">) for search engines, answer engines and screen readers.',
      ["<html lang>: (absent)"],
    );
  }
  const problem = explainLanguageTagProblem(lang);
  if (problem)
    return createCheck(
      "meta.lang",
      "meta",
      "warn",
      `The html lang value is not a valid language tag: ${problem}.`,
      [`<html lang="${lang}">`],
    );
  return createCheck("meta.lang", "meta", "pass", `The page declares its language (${lang}).`, [
    `<html lang="${lang}">`,
  ]);
}

function checkViewport(page: ParsedPage): Check {
  const content = page.$('meta[name="viewport" i]').attr("content");
  if (content === undefined) {
    return createCheck(
      "meta.viewport",
      "meta",
      "fail",
      'No viewport meta tag, so phones render a zoomed-out desktop page (and Google indexes mobile-first). Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
      ["viewport: (absent)"],
    );
  }
  const evidence = [`<meta name="viewport" content="${clip(content, 150)}">`];
  const props = new Map(
    content.split(/[,;]/).map((p) => {
      const [k = "", v = ""] = p.split("=").map((s) => s.trim().toLowerCase());
      return [k, v] as const;
    }),
  );
  if (props.get("width") !== "device-width") {
    return createCheck(
      "meta.viewport",
      "meta",
      "warn",
      "The viewport does not set width=device-width, so the layout won't adapt to the screen. Use width=device-width, initial-scale=1.",
      evidence,
    );
  }
  const maxScale = Number(props.get("maximum-scale") ?? "10");
  if (props.get("user-scalable") === "no" || props.get("user-scalable") === "0" || maxScale < 2) {
    return createCheck(
      "meta.viewport",
      "meta",
      "warn",
      "The viewport blocks pinch-zoom (user-scalable=no or maximum-scale < 2), an accessibility failure. Remove those settings.",
      evidence,
    );
  }
  return createCheck(
    "meta.viewport",
    "meta",
    "pass",
    "The viewport is set for mobile (width=device-width).",
    evidence,
  );
}

// Directives that carry a value after a colon, so "name: value" is not a user-agent prefix.
const VALUED_DIRECTIVES = new Set([
  "max-snippet",
  "max-image-preview",
  "max-video-preview",
  "unavailable_after",
]);
// Crawler names whose own robots meta/X-Robots-Tag applies to search indexing alongside the generic one.
const SEARCH_AGENTS = new Set(["robots", "googlebot", "bingbot"]);

function readRobotsDirectives(page: ParsedPage): {
  noindex: boolean;
  nofollow: boolean;
  directives: string[];
  check: Check;
} {
  const evidence: string[] = [];
  const directives: string[] = [];
  page.$("meta[name][content]").each((_, el) => {
    const name = (el.attribs.name ?? "").toLowerCase();
    if (!SEARCH_AGENTS.has(name)) return;
    const content = el.attribs.content ?? "";
    evidence.push(`<meta name="${name}" content="${clip(content, 100)}">`);
    directives.push(
      ...content
        .split(",")
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    );
  });
  for (const value of headerValues(page.headers, "x-robots-tag")) {
    evidence.push(`x-robots-tag: ${clip(value, 150)}`);
    let agent: string | undefined;
    for (const raw of value.split(",")) {
      let part = raw.trim().toLowerCase();
      const prefixed = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(part);
      if (prefixed?.[1] && !VALUED_DIRECTIVES.has(prefixed[1])) {
        agent = prefixed[1];
        part = prefixed[2] ?? "";
      }
      if (part && (agent === undefined || SEARCH_AGENTS.has(agent))) directives.push(part);
    }
  }
  const noindex = directives.includes("noindex") || directives.includes("none");
  const nofollow = directives.includes("nofollow") || directives.includes("none");
  let check: Check;
  if (noindex) {
    check = createCheck(
      "meta.robots",
      "meta",
      "fail",
      "The page tells search engines not to index it (noindex). Remove noindex from the robots meta tag / X-Robots-Tag if it should appear in search and AI answers.",
      evidence,
    );
  } else if (nofollow) {
    check = createCheck(
      "meta.robots",
      "meta",
      "warn",
      "The page is indexable but nofollow stops crawlers following its links. Remove nofollow unless intended.",
      evidence,
    );
  } else {
    check = createCheck(
      "meta.robots",
      "meta",
      "pass",
      "The page allows indexing (no noindex in robots meta or X-Robots-Tag).",
      evidence.length ? evidence : ["robots meta / x-robots-tag: (absent)"],
    );
  }
  return { noindex, nofollow, directives, check };
}

function checkOpenGraph(page: ParsedPage): Check {
  const { $ } = page;
  const og = (p: string) => $(`meta[property="og:${p}" i]`).attr("content")?.trim();
  const present = ["title", "description", "image", "url", "type"].filter((p) => og(p));
  const evidence = present.map((p) => `og:${p} = ${clip(og(p) ?? "", 100)}`);
  const missing = ["title", "image"].filter((p) => !og(p));
  if (missing.length) {
    return createCheck(
      "meta.open-graph",
      "meta",
      "warn",
      `Open Graph ${missing.map((m) => `og:${m}`).join(" and ")} missing; shared links and some AI previews will fall back to guesses. Add them.`,
      evidence.length ? evidence : ["og: (absent)"],
    );
  }
  return createCheck(
    "meta.open-graph",
    "meta",
    "pass",
    "Open Graph title and image are set for link previews.",
    evidence,
  );
}
