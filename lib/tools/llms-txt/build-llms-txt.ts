import { type CrawledPage, type CrawlResult, normaliseUrl } from "@/lib/crawl/crawl-site";
import { shorten } from "@/lib/crawl/extract-page";
import { type LlmsTxtModel, OPTIONAL_SECTION } from "@/lib/seo/llms-txt";

interface BuiltLink {
  title: string;
  url: string;
  notes: string | null;
}

interface BuiltSection {
  title: string;
  links: BuiltLink[];
}

export interface LlmsTxtDraft {
  model: LlmsTxtModel;
  sections: BuiltSection[];
  /** URLs of the pages listed, in file order. */
  pagesUsed: string[];
  warnings: string[];
}

function words(list: string): string[] {
  return list.split(" ");
}

/** Known path segments and page types, in the order their sections appear in the file. */
const SECTION_RULES: { section: string; segments: string[]; ogTypes?: string[] }[] = [
  {
    section: "Docs",
    segments: words(
      "docs doc documentation guide guides api reference manual help support kb knowledge-base tutorial tutorials " +
        "learn faq faqs developers developer handbook",
    ),
  },
  {
    section: "Products",
    segments: words(
      "products product features feature solutions pricing plans shop store services service integrations platform apps",
    ),
    ogTypes: ["product"],
  },
  {
    section: "Blog",
    segments: words("blog news articles article posts post insights stories updates changelog"),
    ogTypes: ["article"],
  },
  {
    section: "Company",
    segments: words(
      "about about-us company team careers jobs contact contact-us press customers partners investors",
    ),
  },
  {
    section: OPTIONAL_SECTION,
    segments: words(
      "legal privacy privacy-policy terms terms-of-service terms-and-conditions tos cookies cookie-policy gdpr " +
        "imprint impressum dpa disclaimer accessibility licenses",
    ),
  },
];
const LEADING_SECTIONS = ["Docs", "Products", "Blog"];
const TRAILING_SECTIONS = ["Pages", "Company", OPTIONAL_SECTION];
const TITLE_SEPARATORS = [" | ", " - ", " – ", " — ", " · ", " :: ", " » "];
const NOTES_MAX_CHARS = 200;
const LOCALE_SEGMENT = /^[a-z]{2}(-[a-z]{2})?$/i;

/**
 * Turns a crawl into an llms.txt, from what the site says about itself: the site name from
 * og:site_name or the shared title suffix, the summary from the homepage description, one link
 * per indexable page grouped by path and page type, notes from each page's description.
 */
export function buildLlmsTxt(crawl: CrawlResult): LlmsTxtDraft {
  const warnings: string[] = [];
  const ok = crawl.pages.filter((p) => p.status >= 200 && p.status < 300);
  const home = ok.find((p) => new URL(p.finalUrl).pathname === "/") ?? ok[0];
  const siteName = findSiteName(ok, home, new URL(crawl.siteUrl).hostname);
  const summary = home?.metaDescription ?? firstSentence(home?.summary ?? null);
  if (!home?.metaDescription) {
    warnings.push(
      summary
        ? "The homepage has no meta description; the summary was taken from its first paragraph."
        : "The homepage has no meta description or opening paragraph; the file has no summary.",
    );
  }

  // "/case-studies" joins "/case-studies/acme" in a "Case Studies" section rather than "Pages".
  const parents = new Set(
    ok
      .map((p) => pathSegments(p.finalUrl))
      .filter((s) => s.length > 1)
      .map((s) => s[0]!),
  );
  const bySection = new Map<string, BuiltLink[]>();
  const used = new Set<string>();
  const left = { errors: crawl.pages.length - ok.length, noindex: 0, canonical: 0 };
  for (const page of ok) {
    const key = normaliseUrl(page.finalUrl);
    if (page === home || used.has(key)) continue;
    if (page.noindex) {
      left.noindex++;
      continue;
    }
    if (page.canonical && normaliseUrl(page.canonical) !== key) {
      left.canonical++;
      continue;
    }
    used.add(key);
    const section = classifyPage(page, parents);
    const links = bySection.get(section) ?? [];
    links.push({ title: linkTitle(page, siteName), url: page.finalUrl, notes: linkNotes(page) });
    bySection.set(section, links);
  }

  const sections = orderSections(bySection);
  addCrawlWarnings(crawl, left, warnings, sections.length);
  const model: LlmsTxtModel = {
    title: siteName,
    ...(summary ? { summary } : {}),
    details: [],
    sections: sections.map((s) => ({
      title: s.title,
      links: s.links.map((l) => ({ title: l.title, url: l.url, ...(l.notes ? { notes: l.notes } : {}) })),
    })),
  };
  return { model, sections, pagesUsed: sections.flatMap((s) => s.links.map((l) => l.url)), warnings };
}

/**
 * The section of a page: a known path segment, else its og:type, else its first path segment
 * when that holds other pages (`parents`), else "Pages".
 */
export function classifyPage(
  page: Pick<CrawledPage, "finalUrl" | "ogType">,
  parents = new Set<string>(),
): string {
  const segments = pathSegments(page.finalUrl);
  for (const segment of segments) {
    const rule = SECTION_RULES.find((r) => r.segments.includes(segment));
    if (rule) return rule.section;
  }
  const byType = SECTION_RULES.find((r) => page.ogType && r.ogTypes?.includes(page.ogType));
  if (byType) return byType.section;
  const first = segments[0];
  if (first && (segments.length > 1 || parents.has(first))) return humanise(first);
  return "Pages";
}

/** Lower-cased path segments, a leading locale ("/en/…", "/pt-br/…") dropped. */
function pathSegments(url: string): string[] {
  const segments = new URL(url).pathname
    .split("/")
    .filter(Boolean)
    .map((s) => safeDecode(s).toLowerCase());
  if (segments.length > 1 && LOCALE_SEGMENT.test(segments[0]!)) segments.shift();
  return segments;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function orderSections(bySection: Map<string, BuiltLink[]>): BuiltSection[] {
  const rank = (title: string) => {
    if (LEADING_SECTIONS.includes(title)) return LEADING_SECTIONS.indexOf(title);
    if (TRAILING_SECTIONS.includes(title)) return 100 + TRAILING_SECTIONS.indexOf(title);
    return 50;
  };
  return [...bySection.entries()]
    .map(([title, links]) => ({ title, links }))
    .sort((a, b) => rank(a.title) - rank(b.title));
}

function findSiteName(pages: CrawledPage[], home: CrawledPage | undefined, hostname: string): string {
  if (home?.siteName) return home.siteName;
  const named = pages.find((p) => p.siteName)?.siteName;
  if (named) return named;
  // Most sites end every title with the same " | Name"; the most common suffix is the name.
  const suffixes = new Map<string, number>();
  for (const page of pages) {
    for (const sep of TITLE_SEPARATORS) {
      const index = page.title?.lastIndexOf(sep) ?? -1;
      if (page.title && index > 0) {
        const suffix = page.title.slice(index + sep.length).trim();
        suffixes.set(suffix, (suffixes.get(suffix) ?? 0) + 1);
      }
    }
  }
  const [common] = [...suffixes.entries()].sort((a, b) => b[1] - a[1]);
  if (common && common[1] >= 2) return common[0];
  const homeTitle = home?.title?.split(/ [|\-–—·:] /)[0]?.trim();
  return homeTitle || home?.headings.find((h) => h.level === 1)?.text || hostname.replace(/^www\./, "");
}

function linkTitle(page: CrawledPage, siteName: string): string {
  let title = page.title ?? "";
  const lowerName = siteName.toLowerCase();
  for (const sep of TITLE_SEPARATORS) {
    if (title.toLowerCase().endsWith(`${sep}${lowerName}`))
      title = title.slice(0, -(sep.length + siteName.length));
    if (title.toLowerCase().startsWith(`${lowerName}${sep}`))
      title = title.slice(siteName.length + sep.length);
  }
  title = title.trim();
  if (title && title.toLowerCase() !== lowerName) return title;
  const h1 = page.headings.find((h) => h.level === 1)?.text;
  if (h1) return h1;
  const last = new URL(page.finalUrl).pathname.split("/").filter(Boolean).at(-1);
  return last ? humanise(safeDecode(last)) : siteName;
}

function linkNotes(page: CrawledPage): string | null {
  const notes = page.metaDescription ?? firstSentence(page.summary);
  return notes ? shorten(notes, NOTES_MAX_CHARS) : null;
}

function firstSentence(text: string | null): string | null {
  if (!text) return null;
  const match = text.match(/^.+?[.!?](?=\s|$)/);
  return (match?.[0] ?? text).trim();
}

function humanise(segment: string): string {
  return segment
    .replace(/\.[a-z0-9]+$/i, "")
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

function addCrawlWarnings(
  crawl: CrawlResult,
  left: { errors: number; noindex: number; canonical: number },
  warnings: string[],
  sectionCount: number,
) {
  const blocked = crawl.skipped.filter((s) => s.reason === "robots").length;
  const failed = crawl.skipped.filter((s) => s.reason === "fetch-error").length;
  if (crawl.discovery === "links")
    warnings.push("No usable sitemap was found; pages were discovered by following links.");
  if (blocked)
    warnings.push(`${blocked} URL(s) are disallowed by robots.txt for our crawler and were not read.`);
  if (failed) warnings.push(`${failed} page(s) could not be fetched and were left out.`);
  if (left.errors) warnings.push(`${left.errors} page(s) answered with an HTTP error and were left out.`);
  if (left.noindex) warnings.push(`${left.noindex} page(s) are marked noindex and were left out.`);
  if (left.canonical)
    warnings.push(`${left.canonical} page(s) name another canonical URL and were left out.`);
  if (crawl.truncated)
    warnings.push(`The crawl stopped after ${crawl.pages.length} pages; the site has more.`);
  if (sectionCount === 0) warnings.push("No page besides the homepage could be listed.");
}
