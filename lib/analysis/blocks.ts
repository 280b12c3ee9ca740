import type { AnyNode, Element } from "domhandler";
import type { ParsedPage } from "./types";

/** A unit of visible main content in document order: what a reader (or an answer engine) sees. */
export type Block =
  | { kind: "heading"; level: number; text: string }
  | {
      kind: "paragraph" | "list-item" | "quote" | "term" | "definition" | "summary" | "cell" | "code";
      text: string;
    };

type BlockKind = Block["kind"];

// Never content: code, media, widgets and page chrome.
const SKIP_TAGS = new Set(
  (
    "head script style noscript template svg math iframe object embed canvas button select textarea " +
    "input form nav aside dialog video audio map"
  ).split(" "),
);
// Never text, wherever they appear.
const TEXT_SKIP_TAGS = new Set(
  "head script style noscript template svg math iframe object canvas select textarea".split(" "),
);
const SKIP_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "menu",
  "menubar",
]);
const INLINE_TAGS = new Set(
  (
    "a abbr b bdi bdo br cite code data del dfn em font i img ins kbd label mark q s samp small span " +
    "strong sub sup time u var wbr"
  ).split(" "),
);
const HEADING = /^h([1-6])$/;
// Elements whose own text is one block of the given kind when they hold no nested blocks.
const LEAF_KINDS: Record<string, Exclude<BlockKind, "heading">> = {
  p: "paragraph",
  li: "list-item",
  blockquote: "quote",
  dt: "term",
  dd: "definition",
  summary: "summary",
  figcaption: "paragraph",
  caption: "paragraph",
  td: "cell",
  th: "cell",
  pre: "code",
};

function isElement(node: AnyNode): node is Element {
  return node.type === "tag" || node.type === "script" || node.type === "style";
}

function isSkipped(el: Element, inContent: boolean): boolean {
  const name = el.name.toLowerCase();
  if (SKIP_TAGS.has(name)) return true;
  const attrs = el.attribs;
  if ("hidden" in attrs || attrs["aria-hidden"] === "true") return true;
  if (SKIP_ROLES.has((attrs.role ?? "").toLowerCase())) return true;
  // Site-wide header/footer are chrome; an article's own header/footer (title, byline) is content.
  return (name === "header" || name === "footer") && !inContent;
}

/** Visible text of a node with spaces at block boundaries, whitespace collapsed. */
export function textOf(node: AnyNode): string {
  const parts: string[] = [];
  collectText(node, parts);
  return parts.join("").replace(/\s+/g, " ").trim();
}

// Iterative, so a hostile page nested thousands of levels deep cannot overflow the stack.
function collectText(start: AnyNode, parts: string[]): void {
  const stack: Array<AnyNode | string> = [start];
  while (stack.length) {
    const node = stack.pop()!;
    if (typeof node === "string") {
      parts.push(node);
      continue;
    }
    if (node.type === "text") {
      parts.push((node as unknown as { data: string }).data);
      continue;
    }
    const children = (node as unknown as { children?: AnyNode[] }).children ?? [];
    if (!isElement(node)) {
      if (node.type === "root") for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
      continue;
    }
    const name = node.name.toLowerCase();
    if (TEXT_SKIP_TAGS.has(name)) continue;
    if (name === "br") {
      parts.push(" ");
      continue;
    }
    const inline = INLINE_TAGS.has(name);
    if (!inline) {
      parts.push(" ");
      stack.push(" ");
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

function hasBlockChild(el: Element): boolean {
  return el.children.some((c) => isElement(c) && !INLINE_TAGS.has(c.name.toLowerCase()));
}

/**
 * The element holding the page's main content: <main> (or role=main), else a lone <article>, else <body>.
 * Several articles means a listing page, where the body is the fairer scope.
 */
export function findMainRoot(page: ParsedPage): { el: Element | undefined; selector: string } {
  const { $ } = page;
  const main = $("main, [role=main]").first();
  if (main.length) return { el: main.get(0), selector: "main" };
  const articles = $("article");
  if (articles.length === 1) return { el: articles.get(0), selector: "article" };
  const body = $("body").first();
  return { el: body.get(0), selector: "body" };
}

/**
 * Limits on the text every content analysis reads (words, sentences, readability, GEO, AEO, FAQ). A page is
 * fetched up to several megabytes and all of it is the site's to choose, so the text analysed is capped: a
 * long real paragraph is 2,000 characters and a long article 100,000, so neither cap touches a real page,
 * while a hostile one cannot make the analyses (and the job's credits) run unbounded.
 */
export const MAX_BLOCK_CHARS = 20_000;
export const MAX_PAGE_TEXT_CHARS = 300_000;

const cache = new WeakMap<ParsedPage, { blocks: Block[]; capped: boolean }>();

/** Main-content blocks of a page in document order, within the text caps (memoised per parsed page). */
export function extractBlocks(page: ParsedPage): Block[] {
  return readBlocks(page).blocks;
}

/** True when the page's main content was longer than the caps and only its beginning was analysed. */
export function isTextCapped(page: ParsedPage): boolean {
  return readBlocks(page).capped;
}

function readBlocks(page: ParsedPage): { blocks: Block[]; capped: boolean } {
  const hit = cache.get(page);
  if (hit) return hit;
  const { el, selector } = findMainRoot(page);
  const all: Block[] = [];
  if (el) walkContainer(el, all, selector !== "body", "paragraph", 0);
  const entry = capBlocks(all);
  cache.set(page, entry);
  return entry;
}

function capBlocks(all: Block[]): { blocks: Block[]; capped: boolean } {
  const blocks: Block[] = [];
  let left = MAX_PAGE_TEXT_CHARS;
  let capped = false;
  for (const block of all) {
    if (left <= 0) {
      capped = true;
      break;
    }
    const limit = Math.min(MAX_BLOCK_CHARS, left);
    if (block.text.length <= limit) {
      blocks.push(block);
      left -= block.text.length;
      continue;
    }
    capped = true;
    const text = cutText(block.text, limit);
    if (text) blocks.push({ ...block, text });
    left -= limit;
  }
  return { blocks, capped };
}

/** The first `limit` characters, never splitting a surrogate pair, without trailing space. */
function cutText(text: string, limit: number): string {
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end).trimEnd();
}

// Real pages nest a few dozen levels; past this the rest of a subtree becomes one block of text.
const MAX_DEPTH = 200;

function walkContainer(
  el: Element,
  out: Block[],
  inContent: boolean,
  inlineKind: Exclude<BlockKind, "heading">,
  depth: number,
) {
  if (depth > MAX_DEPTH) {
    const text = textOf(el);
    if (text) out.push({ kind: inlineKind, text });
    return;
  }
  let run: string[] = [];
  const flush = () => {
    const text = run.join("").replace(/\s+/g, " ").trim();
    if (text) out.push({ kind: inlineKind, text });
    run = [];
  };
  for (const child of el.children) {
    if (child.type === "text") {
      run.push((child as unknown as { data: string }).data);
      continue;
    }
    if (!isElement(child)) continue;
    const name = child.name.toLowerCase();
    if (isSkipped(child, inContent)) continue;
    if (INLINE_TAGS.has(name)) {
      const parts: string[] = [];
      collectText(child, parts);
      run.push(name === "br" ? " " : parts.join(""));
      continue;
    }
    flush();
    visitBlock(child, name, out, inContent, inlineKind, depth + 1);
  }
  flush();
}

function visitBlock(
  el: Element,
  name: string,
  out: Block[],
  inContent: boolean,
  inlineKind: Exclude<BlockKind, "heading">,
  depth: number,
) {
  const heading = HEADING.exec(name);
  if (heading) {
    out.push({ kind: "heading", level: Number(heading[1]), text: textOf(el) });
    return;
  }
  const childContent = inContent || name === "article" || name === "main" || name === "section";
  let kind = LEAF_KINDS[name];
  // Inside a quotation every paragraph is quoted text.
  if (kind === "paragraph" && inlineKind === "quote") kind = "quote";
  if (kind) {
    if (!hasBlockChild(el)) {
      const text = textOf(el);
      if (text) out.push({ kind, text });
      return;
    }
    walkContainer(el, out, childContent, kind, depth);
    return;
  }
  walkContainer(el, out, childContent, inlineKind === "quote" ? "quote" : "paragraph", depth);
}
