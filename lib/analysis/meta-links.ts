/** Link-level metadata: canonical URLs and hreflang alternates, from <head> and the HTTP Link header. */
import type { Element } from "domhandler";
import { clip, createCheck, headerValues, plural } from "./check";
import { explainLanguageTagProblem } from "./iso-codes";
import type { Check, ParsedPage } from "./types";

export interface HreflangEntry {
  lang: string;
  href: string;
  source: "html" | "header";
}

const WHITESPACE = /\s/;

/**
 * Parses an HTTP Link header into (url, params) pairs: `<url>` then `; name=value` parameters up to the next
 * comma. A scanner, not a regex: a header of a million "<" without ">" once took quadratic time.
 */
export function parseLinkHeader(value: string): Array<{ url: string; params: Record<string, string> }> {
  const links: Array<{ url: string; params: Record<string, string> }> = [];
  let pos = 0;
  for (;;) {
    const open = value.indexOf("<", pos);
    if (open < 0) break;
    const close = value.indexOf(">", open + 1);
    if (close < 0) break;
    const end = skipLinkParams(value, close + 1);
    const params: Record<string, string> = {};
    for (const p of value.slice(close + 1, end).split(";")) {
      const [k, ...v] = p.split("=");
      if (k?.trim()) params[k.trim().toLowerCase()] = v.join("=").trim().replace(/^"|"$/g, "");
    }
    links.push({ url: value.slice(open + 1, close), params });
    pos = end;
  }
  return links;
}

/** End of the `; param` run starting at `from`: each is a ";" then at least one character before the next ";" or ",". */
function skipLinkParams(value: string, from: number): number {
  let end = from;
  for (;;) {
    let i = end;
    while (i < value.length && WHITESPACE.test(value[i]!)) i++;
    if (value[i] !== ";") return end;
    let next = i + 1;
    while (next < value.length && value[next] !== ";" && value[next] !== ",") next++;
    if (next === i + 1) return end;
    end = next;
  }
}

function withoutHash(url: URL): string {
  const copy = new URL(url);
  copy.hash = "";
  return copy.href;
}

export function analyzeCanonical(page: ParsedPage): { href: string | undefined; check: Check } {
  const { $ } = page;
  const fromHtml = $('head link[rel~="canonical" i]')
    .toArray()
    .map((el) => (el.attribs.href ?? "").trim());
  const fromHeader = headerValues(page.headers, "link")
    .flatMap(parseLinkHeader)
    .filter((l) => l.params.rel?.toLowerCase().split(/\s+/).includes("canonical"))
    .map((l) => l.url.trim());
  const raw = [...fromHeader, ...fromHtml];
  const evidence = [
    ...fromHeader.map((h) => `Link: <${h}>; rel="canonical"`),
    ...fromHtml.map((h) => `<link rel="canonical" href="${h}">`),
  ];
  const bodyCanonicals = $('body link[rel~="canonical" i]').length;
  if (raw.length === 0) {
    const note = bodyCanonicals ? " (a canonical link inside <body> is ignored; move it to <head>)" : "";
    return {
      href: undefined,
      check: createCheck(
        "meta.canonical",
        "meta",
        "warn",
        `No canonical URL${note}. Add <link rel="canonical" href="…"> with this page's absolute preferred URL so duplicates consolidate to it.`,
        ["canonical: (absent)"],
      ),
    };
  }
  const resolved = raw.map((h) => {
    try {
      return new URL(h, page.url);
    } catch {
      return undefined;
    }
  });
  const first = resolved[0];
  if (!first || raw[0] === "") {
    return {
      href: undefined,
      check: createCheck(
        "meta.canonical",
        "meta",
        "fail",
        "The canonical URL is empty or invalid, so search engines ignore it. Set an absolute URL.",
        evidence,
      ),
    };
  }
  const distinct = new Set(resolved.map((u) => (u ? withoutHash(u) : "")));
  if (distinct.size > 1) {
    return {
      href: first.href,
      check: createCheck(
        "meta.canonical",
        "meta",
        "fail",
        `The page declares ${distinct.size} different canonical URLs; search engines then ignore them all. Keep one.`,
        evidence,
      ),
    };
  }
  const absolute = /^https?:\/\//i.test(raw[0] ?? "");
  if (!absolute) {
    return {
      href: first.href,
      check: createCheck(
        "meta.canonical",
        "meta",
        "warn",
        `The canonical URL is relative ("${clip(raw[0] ?? "", 80)}", resolving to ${first.href}). Use the absolute URL to avoid misreads.`,
        evidence,
      ),
    };
  }
  if (withoutHash(first) !== withoutHash(page.url)) {
    return {
      href: first.href,
      check: createCheck(
        "meta.canonical",
        "meta",
        "warn",
        `The canonical points to another URL (${first.href}), so this page is unlikely to be indexed itself. Correct if this page should rank.`,
        evidence,
      ),
    };
  }
  return {
    href: first.href,
    check: createCheck(
      "meta.canonical",
      "meta",
      "pass",
      "The canonical URL is absolute and points to this page.",
      evidence,
    ),
  };
}

export function collectHreflang(page: ParsedPage): HreflangEntry[] {
  const fromHtml = page
    .$('head link[rel~="alternate" i][hreflang]')
    .toArray()
    .map((el: Element) => ({
      lang: el.attribs.hreflang ?? "",
      href: el.attribs.href ?? "",
      source: "html" as const,
    }));
  const fromHeader = headerValues(page.headers, "link")
    .flatMap(parseLinkHeader)
    .filter((l) => l.params.hreflang && l.params.rel?.toLowerCase().split(/\s+/).includes("alternate"))
    .map((l) => ({ lang: l.params.hreflang ?? "", href: l.url, source: "header" as const }));
  return [...fromHtml, ...fromHeader];
}

const RECIPROCAL_NOTE =
  "Return links (each alternate linking back to this page) can't be verified from a single page; check the alternates too.";

export function checkHreflang(page: ParsedPage, entries: HreflangEntry[]): Check {
  if (entries.length === 0) {
    return createCheck(
      "meta.hreflang",
      "meta",
      "pass",
      "No hreflang annotations; they are only needed when the page has other language or regional versions.",
      [],
    );
  }
  const evidence = entries.map((e) => `hreflang="${e.lang}" → ${e.href}`);
  const problems: string[] = [];
  for (const e of entries) {
    if (e.lang.toLowerCase() === "x-default") continue;
    const problem = explainLanguageTagProblem(e.lang);
    if (problem) problems.push(problem);
  }
  const byLang = new Map<string, Set<string>>();
  for (const e of entries) {
    const key = e.lang.toLowerCase();
    byLang.set(key, (byLang.get(key) ?? new Set()).add(e.href));
  }
  for (const [lang, hrefs] of byLang)
    if (hrefs.size > 1) problems.push(`"${lang}" points to ${hrefs.size} different URLs`);
  if (problems.length) {
    return createCheck(
      "meta.hreflang",
      "meta",
      "fail",
      `Invalid hreflang annotations: ${problems.join("; ")}. Search engines ignore invalid entries. ${RECIPROCAL_NOTE}`,
      evidence,
    );
  }
  const advice: string[] = [];
  if (!byLang.has("x-default")) advice.push("add an x-default entry for users whose language matches none");
  const self = withoutHash(page.url);
  const selfListed = entries.some((e) => {
    try {
      return withoutHash(new URL(e.href, page.url)) === self;
    } catch {
      return false;
    }
  });
  if (!selfListed) advice.push("include this page itself among the alternates (a self-referencing entry)");
  const relative = entries.filter((e) => !/^https?:\/\//i.test(e.href));
  if (relative.length)
    advice.push(`use absolute URLs (${plural(relative.length, "entry is", "entries are")} relative)`);
  if (advice.length) {
    return createCheck(
      "meta.hreflang",
      "meta",
      "warn",
      `hreflang codes are valid, but ${advice.join("; ")}. ${RECIPROCAL_NOTE}`,
      evidence,
    );
  }
  return createCheck(
    "meta.hreflang",
    "meta",
    "pass",
    `${plural(entries.length, "hreflang entry", "hreflang entries")} with valid codes, x-default and a self reference. ${RECIPROCAL_NOTE}`,
    evidence,
  );
}
