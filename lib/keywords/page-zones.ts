import { loadHtml } from "@/lib/analysis/bounded-html";

/** Where on a page a phrase appears; each zone weighs differently (see ZONE_WEIGHTS). */
export type Zone = "title" | "description" | "h1" | "h2" | "h3" | "anchor" | "body";

export interface PageZones {
  url: string;
  title: string | null;
  texts: { zone: Zone; text: string }[];
  /** Question-shaped texts: headings, FAQ terms and summaries, FAQPage JSON-LD questions. */
  questionCandidates: string[];
}

/** Text kept per page and zone: keeps the work linear and bounded whatever a page holds. */
const MAX_BODY_CHARS = 50_000;
const MAX_ZONE_CHARS = 5_000;
const BOILERPLATE = "nav, header, footer, aside, script, style, noscript, template, form, svg";

const clean = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** Splits an HTML page into weighted zones for keyphrase extraction. */
export function extractZones(html: string, url: string): PageZones {
  const $ = loadHtml(html);
  const texts: PageZones["texts"] = [];
  const push = (zone: Zone, text: string, max = MAX_ZONE_CHARS) => {
    const t = (
      zone === "body"
        ? text
            .replace(/[^\S\n]+/g, " ")
            .replace(/ ?\n\s*/g, "\n")
            .trim()
        : clean(text)
    ).slice(0, max);
    if (t) texts.push({ zone, text: t });
  };
  const title = clean($("title").first().text()) || null;
  if (title) push("title", title);
  push("description", $('meta[name="description" i]').attr("content") ?? "");

  const questionCandidates: string[] = [];
  $("script[type='application/ld+json']").each((_, el) => {
    collectJsonLdQuestions($(el).text(), questionCandidates);
  });

  const content = $("main").first().length
    ? $("main").first()
    : $("article").first().length
      ? $("article").first()
      : $("body");
  // Anchors of the whole page (navigation included): how a site names its own sections.
  $("a").each((_, el) => push("anchor", $(el).text(), 200));
  content.find(BOILERPLATE).remove();
  content.find("h1, h2, h3").each((_, el) => {
    const text = clean($(el).text());
    push(el.tagName.toLowerCase() as "h1" | "h2" | "h3", text);
    if (text) questionCandidates.push(text);
  });
  content.find("dt, summary, h4").each((_, el) => {
    const text = clean($(el).text());
    if (text) questionCandidates.push(text);
  });
  content.find("h1, h2, h3").remove();
  // Block elements end clauses; joining their text with a line break keeps phrases from spanning them.
  content.find("p, li, dt, dd, td, th, div, section, summary, blockquote, br").after("\n");
  push("body", content.text().replace(/[ \t]+/g, " "), MAX_BODY_CHARS);
  return { url, title, texts, questionCandidates };
}

function collectJsonLdQuestions(json: string, out: string[]) {
  let data: unknown;
  try {
    data = JSON.parse(json.slice(0, 200_000));
  } catch {
    return;
  }
  const stack: unknown[] = [data];
  let visited = 0;
  while (stack.length > 0 && visited++ < 5_000) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node && typeof node === "object") {
      const record = node as Record<string, unknown>;
      if (record["@type"] === "Question" && typeof record.name === "string") out.push(clean(record.name));
      for (const value of Object.values(record)) if (value && typeof value === "object") stack.push(value);
    }
  }
}
