/**
 * llms.txt per https://llmstxt.org: an H1 title (the only required part), an optional
 * blockquote summary, optional free markdown without headings, then H2 sections holding
 * lists of `- [name](url): notes`. A section titled "Optional" lists what may be skipped.
 */

interface LlmsTxtLink {
  title: string;
  url: string;
  notes?: string;
}

interface LlmsTxtSection {
  title: string;
  links: LlmsTxtLink[];
}

export interface LlmsTxtModel {
  title: string;
  summary?: string;
  /** Free markdown blocks between the summary and the first section, in order. */
  details: string[];
  sections: LlmsTxtSection[];
}

interface LlmsTxtIssue {
  line: number;
  severity: "error" | "warning";
  code:
    | "TITLE_MISSING"
    | "TITLE_NOT_FIRST"
    | "MULTIPLE_TITLES"
    | "HEADING_BEFORE_SECTIONS"
    | "SUMMARY_MISPLACED"
    | "SECTION_CONTENT"
    | "LINK_INVALID"
    | "LINK_NOTES_SEPARATOR"
    | "URL_NOT_ABSOLUTE"
    | "SECTION_EMPTY"
    | "SECTION_DUPLICATE"
    | "OPTIONAL_NOT_LAST";
  message: string;
}

export interface LlmsTxtParseResult {
  model: LlmsTxtModel | null;
  issues: LlmsTxtIssue[];
  /** No error-level issue. */
  valid: boolean;
}

export const OPTIONAL_SECTION = "Optional";

const LINK_ITEM = /^[-*+]\s+\[((?:\\.|[^\]\\])*)\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)(.*)$/;
const LIST_ITEM = /^[-*+]\s+/;

export function parseLlmsTxt(text: string): LlmsTxtParseResult {
  const issues: LlmsTxtIssue[] = [];
  const add = (
    line: number,
    severity: LlmsTxtIssue["severity"],
    code: LlmsTxtIssue["code"],
    message: string,
  ) => issues.push({ line, severity, code, message });
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  let model: LlmsTxtModel | null = null;
  let section: LlmsTxtSection | null = null;
  let sectionLine = 0;
  let block: string[] = [];
  let inFence = false;
  let sawContent = false;

  const flushBlock = () => {
    const content = block.join("\n").trim();
    block = [];
    if (!content || !model) return;
    if (!model.summary && model.details.length === 0 && content.startsWith(">")) {
      model.summary = content
        .split("\n")
        .map((l) => l.replace(/^>\s?/, ""))
        .join(" ")
        .replace(/\s+/g, " ")
        .trim();
    } else {
      model.details.push(content);
    }
  };
  const closeSection = () => {
    if (section && section.links.length === 0) {
      add(sectionLine, "warning", "SECTION_EMPTY", `Section "${section.title}" lists no links.`);
    }
  };

  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const trimmed = raw.trim();
    if (/^(```|~~~)/.test(trimmed)) inFence = !inFence;
    const heading = inFence ? null : matchAtxHeading(trimmed);

    if (!model) {
      if (!trimmed) continue;
      if (heading && heading[1] === "#") {
        if (sawContent)
          add(line, "error", "TITLE_NOT_FIRST", "The H1 title must come before any other content.");
        model = { title: heading[2] ?? "", details: [], sections: [] };
        if (!model.title) add(line, "error", "TITLE_MISSING", "The H1 title is empty.");
        continue;
      }
      sawContent = true;
      continue;
    }
    if (heading?.[1] === "#") {
      add(line, "error", "MULTIPLE_TITLES", "Only one H1 title is allowed.");
      continue;
    }
    if (heading?.[1] === "##") {
      if (!section) flushBlock();
      closeSection();
      const title = heading[2] ?? "";
      if (model.sections.some((s) => s.title.toLowerCase() === title.toLowerCase())) {
        add(line, "warning", "SECTION_DUPLICATE", `Section "${title}" appears more than once.`);
      }
      section = { title, links: [] };
      sectionLine = line;
      model.sections.push(section);
      continue;
    }
    if (!section) {
      if (heading) {
        add(
          line,
          "error",
          "HEADING_BEFORE_SECTIONS",
          "Only H2 headings may start sections; found a deeper heading.",
        );
        continue;
      }
      if (trimmed.startsWith(">") && (model.summary || model.details.length > 0) && block.length === 0) {
        add(line, "warning", "SUMMARY_MISPLACED", "The blockquote summary should directly follow the title.");
      }
      if (trimmed || inFence) block.push(raw);
      else flushBlock();
      continue;
    }
    if (!trimmed) continue;
    const link = trimmed.match(LINK_ITEM);
    if (!link) {
      if (LIST_ITEM.test(trimmed)) {
        add(
          line,
          "error",
          "LINK_INVALID",
          `List item without a [name](url) link in section "${section.title}".`,
        );
      } else {
        add(
          line,
          "warning",
          "SECTION_CONTENT",
          `Content that is not a link list in section "${section.title}".`,
        );
      }
      continue;
    }
    const url = (link[2] ?? "").replace(/^<|>$/g, "");
    if (!/^https?:\/\//i.test(url)) {
      add(line, "warning", "URL_NOT_ABSOLUTE", `"${url}" is not an absolute http(s) URL.`);
    }
    const entry: LlmsTxtLink = { title: unescapeTitle(link[1] ?? ""), url };
    const rest = (link[3] ?? "").trim();
    if (rest.startsWith(":")) {
      const notes = rest.slice(1).trim();
      if (notes) entry.notes = notes;
    } else if (rest) {
      add(line, "warning", "LINK_NOTES_SEPARATOR", 'Notes after a link should follow ": ".');
      entry.notes = rest;
    }
    section.links.push(entry);
  }

  if (!model) {
    issues.push({
      line: 1,
      severity: "error",
      code: "TITLE_MISSING",
      message: "An llms.txt must start with an H1 title.",
    });
    return { model: null, issues, valid: false };
  }
  const parsed: LlmsTxtModel = model;
  if (!section) flushBlock();
  closeSection();
  const optionalIndex = parsed.sections.findIndex((s) => s.title === OPTIONAL_SECTION);
  if (optionalIndex >= 0 && optionalIndex !== parsed.sections.length - 1) {
    add(0, "warning", "OPTIONAL_NOT_LAST", `The "${OPTIONAL_SECTION}" section is usually the last one.`);
  }
  return { model: parsed, issues, valid: !issues.some((i) => i.severity === "error") };
}

const WHITESPACE = /\s/;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * A markdown ATX heading of a trimmed line: [line, hashes, text] with the closing "#"s removed, or null.
 * Hand-written because the lazy regex it replaces (`^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$`) retried the end of
 * the line from every character, quadratic on a long run of spaces.
 */
function matchAtxHeading(line: string): [string, string, string] | null {
  let hashes = 0;
  while (line[hashes] === "#") hashes++;
  if (hashes < 1 || hashes > 6 || !WHITESPACE.test(line[hashes] ?? "")) return null;
  let from = hashes;
  while (from < line.length && WHITESPACE.test(line[from]!)) from++;
  const body = line.slice(from);
  // The shortest text wins, so a closing run of "#" after whitespace is dropped with that whitespace.
  let closing = body.length;
  while (closing > 0 && body[closing - 1] === "#") closing--;
  let text = body;
  if (closing < body.length && closing > 0 && WHITESPACE.test(body[closing - 1]!)) {
    let cut = closing;
    while (cut > 0 && WHITESPACE.test(body[cut - 1]!)) cut--;
    text = body.slice(0, cut);
  }
  if (LINE_BREAK.test(text)) return null;
  return [line, line.slice(0, hashes), text];
}

/** Renders the model in the canonical llmstxt.org layout; parseLlmsTxt reads it back unchanged. */
export function renderLlmsTxt(model: LlmsTxtModel): string {
  const blocks = [`# ${singleLine(model.title)}`];
  if (model.summary) blocks.push(`> ${singleLine(model.summary)}`);
  for (const detail of model.details) if (detail.trim()) blocks.push(detail.trim());
  for (const section of model.sections) {
    const items = section.links.map((link) => {
      const item = `- [${escapeTitle(singleLine(link.title))}](${escapeUrl(link.url)})`;
      return link.notes ? `${item}: ${singleLine(link.notes)}` : item;
    });
    blocks.push([`## ${singleLine(section.title)}`, "", ...items].join("\n").trimEnd());
  }
  return `${blocks.join("\n\n")}\n`;
}

function singleLine(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

function escapeTitle(title: string): string {
  return title.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

function unescapeTitle(title: string): string {
  return title.replace(/\\([\\[\]])/g, "$1");
}

/** Spaces and parentheses would end the link early. */
function escapeUrl(url: string): string {
  return url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}
