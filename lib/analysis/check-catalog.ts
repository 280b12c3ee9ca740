// Every audit check in words, beside the check codes: its title, how serious a failure is, what it means and
// how to fix it. Checks carry these into results, so no reader ever sees a bare code such as `http.https`.
// Client-safe (plain data): the result views read it too.

export const SEVERITIES = ["error", "warning", "notice"] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface CheckInfo {
  /** A neutral name ("HTTPS", "Page title"): it reads right whether the check passed or not. */
  title: string;
  /** How serious it is when the check does not pass: error blocks ranking or reading, warning costs, notice is advice. */
  severity: Severity;
  /** What the check looks at and why it matters. */
  meaning: string;
  /** What to do when it does not pass. */
  fix: string;
}

export const CHECK_CATALOG: Record<string, CheckInfo> = {
  "http.status": {
    title: "Page answers successfully",
    severity: "error",
    meaning:
      "The page must answer with a 2xx status; search engines and AI crawlers drop pages that answer with errors.",
    fix: "Make the URL answer 200, or redirect it permanently to the page that replaced it.",
  },
  "http.https": {
    title: "HTTPS",
    severity: "error",
    meaning: "Pages served over plain HTTP are marked insecure by browsers and rank lower.",
    fix: "Serve the site over HTTPS and redirect every http:// URL to its https:// twin.",
  },
  "http.redirects": {
    title: "Redirect chain",
    severity: "warning",
    meaning: "Each redirect hop costs a round trip for people and crawl budget for crawlers.",
    fix: "Link and redirect straight to the final URL in one hop.",
  },
  "http.response-time": {
    title: "Server response time",
    severity: "warning",
    meaning: "How long the HTML took to arrive; slow answers hurt Core Web Vitals and crawling.",
    fix: "Cache the page (CDN or server cache), and profile the slow parts of the backend.",
  },
  "crawl.robots-txt": {
    title: "robots.txt file",
    severity: "warning",
    meaning:
      "robots.txt tells crawlers what they may fetch; an unreachable file (5xx) makes crawlers treat the whole site as closed.",
    fix: "Serve /robots.txt as text with status 200 (or 404 if you want no rules) and fix the lines it reports.",
  },
  "crawl.search-bots": {
    title: "Search engine crawlers allowed",
    severity: "error",
    meaning: "Whether robots.txt lets Googlebot, Bingbot and the other search crawlers fetch the page.",
    fix: "Remove the Disallow rules that match this page for search crawlers.",
  },
  "crawl.sitemap": {
    title: "XML sitemap",
    severity: "warning",
    meaning:
      "A sitemap lists the pages you want crawled; pages missing from it are found later or not at all.",
    fix: "Publish a sitemap listing this page and name it on a Sitemap: line in robots.txt.",
  },
  "ai-access.bots": {
    title: "AI crawlers allowed",
    severity: "warning",
    meaning:
      "Whether robots.txt lets the AI crawlers and fetchers (GPTBot, ClaudeBot, PerplexityBot, …) read the page; blocked, the page cannot be cited in their answers.",
    fix: "Allow the AI search crawlers and user fetchers you want to be cited by; block training crawlers separately if you wish.",
  },
  "ai-access.llms-txt": {
    title: "llms.txt file",
    severity: "notice",
    meaning: "An llms.txt (llmstxt.org) gives language models a curated map of the site.",
    fix: "Publish /llms.txt as text: an H1 title, an optional > summary, then H2 sections of link lists.",
  },
  "security.csp": {
    title: "Content-Security-Policy header",
    severity: "warning",
    meaning: "A CSP limits where scripts and other resources may load from, blunting cross-site scripting.",
    fix: "Send a Content-Security-Policy without 'unsafe-inline' and 'unsafe-eval' for scripts; start from default-src 'self'.",
  },
  "security.cookies": {
    title: "Cookie security flags",
    severity: "warning",
    meaning: "Session cookies without Secure, HttpOnly and SameSite can leak or be sent cross-site.",
    fix: "Set Secure, HttpOnly and SameSite=Lax (or Strict) on every cookie that does not need to be read by scripts.",
  },
  "security.cross-origin-resource-policy": {
    title: "Cross-Origin-Resource-Policy header",
    severity: "notice",
    meaning: "CORP stops other sites from embedding your resources where that is not wanted.",
    fix: "Send Cross-Origin-Resource-Policy: same-site (or same-origin) on resources that should not be embedded elsewhere.",
  },
  "security.hsts": {
    title: "Strict-Transport-Security header",
    severity: "warning",
    meaning: "HSTS makes browsers use HTTPS for the site on every later visit, defeating downgrade attacks.",
    fix: "Send Strict-Transport-Security: max-age=63072000; includeSubDomains over HTTPS.",
  },
  "security.permissions-policy": {
    title: "Permissions-Policy header",
    severity: "notice",
    meaning:
      "Permissions-Policy turns off browser features (camera, microphone, geolocation) the page does not use.",
    fix: "Send Permissions-Policy listing the features you do not use, e.g. camera=(), microphone=(), geolocation=().",
  },
  "security.redirection": {
    title: "HTTP to HTTPS redirect",
    severity: "warning",
    meaning:
      "Visitors typing the address reach http:// first; it should redirect to HTTPS on the same host at once.",
    fix: "Redirect every http:// request permanently (301) to the same URL on https://.",
  },
  "security.referrer-policy": {
    title: "Referrer-Policy header",
    severity: "notice",
    meaning: "Referrer-Policy decides how much of the page's URL other sites see when people follow links.",
    fix: "Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).",
  },
  "security.subresource-integrity": {
    title: "Subresource Integrity for scripts",
    severity: "notice",
    meaning: "An integrity hash on scripts from other origins stops a tampered copy from running.",
    fix: "Add integrity and crossorigin attributes to script tags that load from other origins, and load them over HTTPS.",
  },
  "security.x-content-type-options": {
    title: "X-Content-Type-Options header",
    severity: "warning",
    meaning: "nosniff stops browsers from guessing content types, closing a class of injection attacks.",
    fix: "Send X-Content-Type-Options: nosniff.",
  },
  "security.x-frame-options": {
    title: "Protection against framing",
    severity: "warning",
    meaning:
      "Without X-Frame-Options or CSP frame-ancestors, other sites can frame the page for clickjacking.",
    fix: "Send Content-Security-Policy: frame-ancestors 'self' (or X-Frame-Options: SAMEORIGIN).",
  },
  "meta.title": {
    title: "Page title",
    severity: "error",
    meaning: "The <title> is the headline of the search result and what AI answers cite the page by.",
    fix: "Write one unique, descriptive title of about 30–60 characters.",
  },
  "meta.description": {
    title: "Meta description",
    severity: "warning",
    meaning: "The description is often the snippet under the search result.",
    fix: "Write a unique description of about 70–160 characters that answers why to read the page.",
  },
  "meta.canonical": {
    title: "Canonical URL",
    severity: "warning",
    meaning:
      "The canonical link says which URL is the original when the same content is reachable at several.",
    fix: 'Add <link rel="canonical"> with the page\'s preferred absolute URL.',
  },
  "meta.robots": {
    title: "Robots meta directives",
    severity: "error",
    meaning: "A noindex in a robots meta tag or X-Robots-Tag header keeps the page out of search results.",
    fix: "Remove noindex from pages that should be found.",
  },
  "meta.viewport": {
    title: "Mobile viewport",
    severity: "warning",
    meaning: "Without a viewport meta tag the page renders as a shrunken desktop page on phones.",
    fix: 'Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
  },
  "meta.lang": {
    title: "Page language",
    severity: "notice",
    meaning: "The lang attribute tells search engines, screen readers and translators the page's language.",
    fix: 'Set <html lang="…"> to the page\'s language code.',
  },
  "meta.hreflang": {
    title: "Language alternates (hreflang)",
    severity: "warning",
    meaning: "hreflang links point each language version of the page to the others.",
    fix: "Give every alternate a valid language code and an absolute URL, include the page itself, and make the links reciprocal.",
  },
  "meta.open-graph": {
    title: "Open Graph tags",
    severity: "notice",
    meaning:
      "og:title, og:description and og:image shape how the page looks when shared and in some AI previews.",
    fix: "Add og:title, og:description and og:image meta tags.",
  },
  "headings.h1": {
    title: "Main heading (H1)",
    severity: "warning",
    meaning: "One H1 states what the page is about, for readers and engines.",
    fix: "Give the page exactly one H1 that names its topic.",
  },
  "headings.hierarchy": {
    title: "Heading order",
    severity: "notice",
    meaning: "Headings that skip levels (H2 to H4) make the outline harder to follow for people and parsers.",
    fix: "Nest headings in order without skipping levels.",
  },
  "headings.empty": {
    title: "Empty headings",
    severity: "notice",
    meaning: "Headings without text are announced by screen readers and confuse outlines.",
    fix: "Remove empty heading tags or give them text.",
  },
  "structured-data.present": {
    title: "Structured data",
    severity: "warning",
    meaning:
      "schema.org markup (JSON-LD) makes the page eligible for rich results and helps engines understand it.",
    fix: "Add JSON-LD describing the page (Article, Product, Organization, FAQPage, …).",
  },
  "structured-data.json-ld-syntax": {
    title: "JSON-LD syntax",
    severity: "error",
    meaning: "A JSON-LD block that does not parse is ignored entirely.",
    fix: "Fix the JSON syntax errors reported in each block.",
  },
  "structured-data.context": {
    title: "schema.org context",
    severity: "warning",
    meaning: "JSON-LD needs @context https://schema.org for its types to be understood.",
    fix: 'Set "@context": "https://schema.org" on every block.',
  },
  "structured-data.required": {
    title: "Required structured data properties",
    severity: "error",
    meaning: "Items missing properties Google requires are not eligible for rich results.",
    fix: "Add the required properties listed for each item.",
  },
  "structured-data.recommended": {
    title: "Recommended structured data properties",
    severity: "notice",
    meaning: "Recommended properties make rich results fuller and more likely.",
    fix: "Add the recommended properties listed for each item.",
  },
  "content.word-count": {
    title: "Amount of text",
    severity: "warning",
    meaning: "Pages with little text have little for search engines to rank or AI engines to quote.",
    fix: "Write enough substantive text to answer the page's question fully.",
  },
  "content.readability": {
    title: "Readability",
    severity: "notice",
    meaning: "Long sentences and long words make text harder to read and to quote.",
    fix: "Shorten sentences and prefer common words.",
  },
  "content.image-alt": {
    title: "Image text alternatives",
    severity: "warning",
    meaning: "Images without alt text are invisible to screen readers and image search.",
    fix: 'Give every meaningful image an alt text; give decorative images alt="".',
  },
  "content.links": {
    title: "Internal links",
    severity: "notice",
    meaning: "Links to other pages of the site help crawlers and readers find related content.",
    fix: "Link to related pages of the site from the text.",
  },
  "aeo.question-headings": {
    title: "Question-shaped headings",
    severity: "notice",
    meaning: "Headings phrased as the questions people ask map directly to answer-engine queries.",
    fix: "Phrase some headings as questions your readers ask.",
  },
  "aeo.concise-answers": {
    title: "Concise answers under questions",
    severity: "notice",
    meaning: "A short direct answer (about 40–60 words) right under a question is what answer engines quote.",
    fix: "Start each question's section with a direct answer of a few sentences.",
  },
  "aeo.faq-schema": {
    title: "FAQ structured data",
    severity: "notice",
    meaning: "FAQPage markup makes question-and-answer content explicit to engines.",
    fix: "Mark up genuine FAQs with FAQPage JSON-LD (the FAQ generator writes it).",
  },
  "aeo.entity": {
    title: "Organization or person identified",
    severity: "notice",
    meaning: "Organization or Person markup with sameAs links tells engines who stands behind the content.",
    fix: "Add Organization (or Person) JSON-LD with name, url, logo and sameAs profile links.",
  },
  "aeo.author": {
    title: "Author named",
    severity: "notice",
    meaning: "A named author is a trust signal for readers and answer engines.",
    fix: "Name the author on the page and in the Article markup.",
  },
  "aeo.about-link": {
    title: "Link to an About page",
    severity: "notice",
    meaning: "An About page tells readers and engines who publishes the site.",
    fix: "Link to an About page from the page (header or footer).",
  },
};

/** The words for a check code; an unknown code gets a readable title from its code rather than the code. */
export function checkInfo(id: string): CheckInfo {
  const known = CHECK_CATALOG[id];
  if (known) return known;
  const words = (id.split(".").pop() ?? id).replace(/-/g, " ");
  return {
    title: words.charAt(0).toUpperCase() + words.slice(1),
    severity: "notice",
    meaning: "",
    fix: "",
  };
}

/** The audit's categories in words. */
export const CATEGORY_TITLES: Record<string, string> = {
  http: "HTTP",
  crawl: "Crawling",
  security: "Security headers",
  meta: "Meta tags",
  headings: "Headings",
  "structured-data": "Structured data",
  content: "Content",
  "ai-access": "AI access",
  aeo: "Answer engines",
};
